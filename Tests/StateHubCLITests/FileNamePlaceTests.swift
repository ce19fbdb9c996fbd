import Foundation
import Testing

/// A file named `sp ace:7 é.mjs` is named whole in stderr, `error.message` and
/// `dispatches[]`, never as file "ace" line 7 (as a place re-parsed from printed text would
/// be), and a failed dispatch or an unhandled rejection keeps `error.file`/`line`/`column`:
/// places come from the stop's and the error's own fields.
@Suite("a file name with spaces and :DIGITS is named whole", .tags(.integration))
struct FileNamePlaceTests {
    static func body(module: Bool) -> String {
        """
        \(module ? "import { defineStore } from 'pinia'" : "// 1")
        \(module ? "export const useW = " : "const useW = ")defineStore('w', { state: () => ({ n: 0 }), actions: {
          // 3
          boom() { throw new Error('on line 4') },
          spin() { for (;;) performance.now() },
        } })
        useW()
        """
    }

    @Test(arguments: ["sp ace:7 é.mjs", "sp ace:7 x.js"])
    func aStopAThrowAndARejectionNameTheWholeFile(name: String) async throws {
        let folder = try StateHubBinary.script(Self.body(module: name.hasSuffix(".mjs")), named: name).deletingLastPathComponent()

        let stopped = try await StateHubBinary.run(["run", name, "--time-limit", "1", "--dispatch", "w.spin()", "--json"], in: folder)
        #expect(stopped.status == 1, "\(stopped.stderr.prefix(600))")
        #expect(stopped.stderr.contains("failed: \(name):5: stopped after"), "\(stopped.stderr.prefix(600))")
        let object = try JSONOutputTests.object(stopped)
        let error = try #require(object["error"] as? [String: Any], "\(stopped.stdout)")
        #expect(error["file"] as? String == name && error["line"] as? Int == 5, "\(error)")
        #expect((error["message"] as? String)?.contains("\(name):5: stopped") == true, "\(error)")
        let dispatch = try #require((object["dispatches"] as? [[String: Any]])?.first, "\(stopped.stdout)")
        #expect(dispatch["file"] as? String == name && dispatch["line"] as? Int == 5, "\(dispatch)")
        #expect((dispatch["error"] as? String)?.hasPrefix("\(name):5: stopped") == true, "\(dispatch)")

        let threw = try await StateHubBinary.run(["run", name, "--dispatch", "w.boom()", "--json"], in: folder)
        #expect(threw.status == 1, "\(threw.stderr.prefix(600))")
        let thrown = try JSONOutputTests.object(threw)
        let failed = try #require((thrown["dispatches"] as? [[String: Any]])?.first, "\(threw.stdout)")
        #expect(failed["file"] as? String == name && failed["line"] as? Int == 4 && failed["column"] is Int, "\(failed)")
        let threwError = try #require(thrown["error"] as? [String: Any], "\(threw.stdout)")
        #expect(threwError["file"] as? String == name && threwError["line"] as? Int == 4 && threwError["column"] is Int, "\(threwError)")

        let rejecting = "r " + name
        try "// 1\nPromise.reject(new Error('on line 2'))\n".write(to: folder.appendingPathComponent(rejecting), atomically: true, encoding: .utf8)
        let rejected = try await StateHubBinary.run(["run", rejecting, "--json"], in: folder)
        #expect(rejected.status == 1, "\(rejected.stderr.prefix(600))")
        let rejection = try #require(try JSONOutputTests.object(rejected)["error"] as? [String: Any], "\(rejected.stdout)")
        #expect(rejection["kind"] as? String == "unhandledRejection", "\(rejection)")
        #expect(rejection["file"] as? String == rejecting && rejection["line"] as? Int == 2 && rejection["column"] is Int, "\(rejection)")
    }
}
