import Foundation
@testable import StateHubCLI
import Testing

/// Under `ulimit -v` below about 6 GiB an engine start aborts with SIGABRT and no message
/// (JavaScriptCore reserves address space), so `run` and `eval` check `RLIMIT_AS` first and
/// exit 1 naming the limit.
@Suite("a low ulimit -v is named, not a SIGABRT", .tags(.integration))
struct AddressSpaceLimitTests {
    /// `statehub ARGUMENTS` under `ulimit -v KIB`, through the shell as users set it.
    static func run(underKiB kib: Int, _ arguments: [String], environment: [String: String] = [:]) async throws -> StateHubBinary.Result {
        let binary = try #require(StateHubBinary.url)
        let quoted = ([binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try await StateHubBinary.run(["-c", "ulimit -v \(kib) && exec env \(environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) \(quoted)"],
                                      binary: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func evalAndRunNameTheLimitAndExitOne() async throws {
        let file = try StateHubBinary.script("console.log('ran')", named: "one.js")
        let eval = try await Self.run(underKiB: 4 << 20, ["eval", file.path])
        #expect(eval.status == 1, "\(eval.status): \(eval.stderr.prefix(400))")
        #expect(eval.stderr.hasPrefix("statehub: the address-space limit (ulimit -v) is 4194304 KiB; a run needs at least 7340032 KiB (7 GiB)"), "\(eval.stderr.prefix(400))")
        #expect(!eval.stdout.contains("ran"))

        let run = try await Self.run(underKiB: 4 << 20, ["run", file.path, "--json"])
        #expect(run.status == 1, "\(run.status): \(run.stderr.prefix(400))")
        let error = try #require(try JSONOutputTests.object(run)["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["kind"] as? String == "setup", "\(error)")
        #expect((error["message"] as? String)?.contains("ulimit -v") == true, "\(error)")

        let withoutJIT = try await Self.run(underKiB: 4 << 20, ["eval", file.path], environment: ["JSC_useJIT": "0"])
        #expect(withoutJIT.status == 1, "\(withoutJIT.status): \(withoutJIT.stderr.prefix(400))")
        #expect(withoutJIT.stderr.contains("a run needs at least 6291456 KiB (6 GiB) without the JIT"), "\(withoutJIT.stderr.prefix(400))")
    }

    /// A module with a dispatch, a trace and `--json`, the heaviest start measured.
    static let module = """
        import { defineStore } from 'pinia'
        export const s = defineStore('s', { state: () => ({ n: 0 }), actions: { inc() { this.n += 1 } } })()
        console.log('ran')
        """

    /// At the limit the check asks for, a module run starts, with and without the JIT (the
    /// check is not stricter than JavaScriptCore), and just under it the run is refused, never
    /// let through to abort (a limit of 6 GiB, 5 GiB without the JIT, is too low for a module
    /// run: it dies of SIGABRT, exit 134).
    @Test func theLimitTheMessageAsksForIsEnoughForAModule() async throws {
        let file = try StateHubBinary.script(Self.module, named: "m1.mjs")
        let trace = file.deletingLastPathComponent().appendingPathComponent("t.ndjson").path
        let arguments = ["run", file.path, "--dispatch", "s.inc()", "--trace", trace, "--json"]
        for (jit, gib) in [(true, 7), (false, 6)] {
            let environment = jit ? [:] : ["JSC_useJIT": "0"]
            let atNeed = try await Self.run(underKiB: gib << 20, arguments, environment: environment)
            #expect(atNeed.status == 0, "jit \(jit): \(atNeed.status): \(atNeed.stderr.prefix(400))")
            #expect(atNeed.stderr.contains("ran"), "jit \(jit): \(atNeed.stderr.prefix(400))")
            for kib in [(gib << 20) - 1, (gib - 1) << 20] {
                let under = try await Self.run(underKiB: kib, arguments, environment: environment)
                #expect(under.status == 1, "jit \(jit) at \(kib) KiB: \(under.status): \(under.stderr.prefix(400))")
                // Never rounded up to the need: the limit is printed exactly as given.
                #expect(under.stderr.contains("(ulimit -v) is \(kib) KiB; a run needs at least \(gib << 20) KiB"), "\(under.stderr.prefix(400))")
            }
        }
        #expect(AddressSpaceLimit.problem(limit: nil) == nil)
        #expect(AddressSpaceLimit.problem(limit: 7 << 30, jit: true) == nil)
        #expect(AddressSpaceLimit.problem(limit: (7 << 30) - 1, jit: true) != nil)
        #expect(AddressSpaceLimit.problem(limit: 6 << 30, jit: false) == nil)
    }

    /// Arguments and files are checked first: an unreadable file under a low limit is still
    /// `usage`, exit 2, not `setup`, exit 1, naming the limit.
    @Test func anUnreadableFileIsStillUsageUnderALowLimit() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-no-such-\(UUID().uuidString).js").path
        let run = try await Self.run(underKiB: 4 << 20, ["run", missing, "--json"])
        #expect(run.status == 2, "\(run.status): \(run.stderr.prefix(400))")
        let error = try #require(try JSONOutputTests.object(run)["error"] as? [String: Any], "\(run.stdout)")
        #expect(error["kind"] as? String == "usage", "\(error)")
        #expect(!run.stderr.contains("ulimit"), "\(run.stderr.prefix(400))")
        let eval = try await Self.run(underKiB: 4 << 20, ["eval", missing])
        #expect(eval.status == 2, "\(eval.status): \(eval.stderr.prefix(400))")
        #expect(eval.stderr.contains("cannot read"), "\(eval.stderr.prefix(400))")
    }
}
