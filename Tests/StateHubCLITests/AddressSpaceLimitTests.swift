import Foundation
@testable import StateHubCLI
import Testing

/// Review finding 10: under `ulimit -v` below about 6 GiB every engine start aborted with
/// SIGABRT and no message (JavaScriptCore reserves address space). `run` and `eval` now check
/// `RLIMIT_AS` first and exit 1 naming the limit.
@Suite("a low ulimit -v is named, not a SIGABRT")
struct AddressSpaceLimitTests {
    /// `statehub ARGUMENTS` under `ulimit -v KIB`, through the shell as users set it.
    static func run(underKiB kib: Int, _ arguments: [String], environment: [String: String] = [:]) throws -> StateHubBinary.Result {
        let binary = try #require(StateHubBinary.url)
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try StateHubBinary.run(["-c", "ulimit -v \(kib) && exec env \(environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) \(quoted)"],
                                      binary: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func evalAndRunNameTheLimitAndExitOne() throws {
        let file = try StateHubBinary.script("console.log('ran')", named: "one.js")
        let eval = try Self.run(underKiB: 4 << 20, ["eval", file.path])
        #expect(eval.status == 1, "\(eval.status): \(eval.stderr.prefix(400))")
        #expect(eval.stderr.hasPrefix("statehub: the address-space limit (ulimit -v) is 4.0 GiB; JavaScriptCore reserves about 6.0 GiB"), "\(eval.stderr.prefix(400))")
        #expect(!eval.stdout.contains("ran"))

        let run = try Self.run(underKiB: 4 << 20, ["run", file.path, "--json"])
        #expect(run.status == 1, "\(run.status): \(run.stderr.prefix(400))")
        let error = try #require(try JSONOutputTests.object(run)["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["kind"] as? String == "setup", "\(error)")
        #expect((error["message"] as? String)?.contains("ulimit -v") == true, "\(error)")

        let withoutJIT = try Self.run(underKiB: 4 << 20, ["eval", file.path], environment: ["JSC_useJIT": "0"])
        #expect(withoutJIT.status == 1, "\(withoutJIT.status): \(withoutJIT.stderr.prefix(400))")
        #expect(withoutJIT.stderr.contains("about 5.0 GiB of address space when an engine starts without the JIT"), "\(withoutJIT.stderr.prefix(400))")
    }

    /// At the limit the check asks for, the engine starts (the check is not stricter than JavaScriptCore).
    @Test func theLimitTheMessageAsksForIsEnough() throws {
        let file = try StateHubBinary.script("console.log('ran')", named: "one.js")
        let eval = try Self.run(underKiB: 6 << 20, ["eval", file.path])
        #expect(eval.status == 0, "\(eval.status): \(eval.stderr.prefix(400))")
        #expect(eval.stdout == "ran\n")
        #expect(AddressSpaceLimit.problem(limit: nil) == nil)
        #expect(AddressSpaceLimit.problem(limit: 6 << 30, jit: true) == nil)
        #expect(AddressSpaceLimit.problem(limit: (6 << 30) - 1, jit: true) != nil)
        #expect(AddressSpaceLimit.problem(limit: 5 << 30, jit: false) == nil)
    }
}
