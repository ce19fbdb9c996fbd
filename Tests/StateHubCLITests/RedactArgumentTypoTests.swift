import Foundation
import Testing

/// A mistyped `--redact-argument` hides nothing; it must end the run before any dispatch writes
/// the secret (`auth.loginWithPatern:1` left the password in clear).
@Suite("--redact-argument names what exists", .tags(.integration))
struct RedactArgumentTypoTests {
    static let page = """
        const useAuth = defineStore('auth', { state: () => ({ user: null }), actions: {
          loginWithPattern(user, secret, remember) { this.user = user; },
        } });
        useAuth();
        const useLater = defineStore('later', { state: () => ({}), actions: { go(x) {} } });
        """

    @Test(arguments: [
        ("auth.loginWithPatern:1", "store \"auth\" has no action \"loginWithPatern\"", "did you mean \"loginWithPattern\"?"),
        ("atuh.loginWithPattern:1", "no store \"atuh\" is defined", "did you mean \"auth\"?"),
    ])
    func aTypoEndsTheRunBeforeTheSecretIsWritten(spec: String, said: String, suggestion: String) async throws {
        let file = try StateHubBinary.script(Self.page, named: "auth.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("t.ndjson")
        let run = try await StateHubBinary.run(["run", file.path, "--trace", trace.path, "--redact-argument", spec,
                                          "--dispatch", #"auth.loginWithPattern("bob", "S3CRET-TYPO", true)"#])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--redact-argument \(spec): \(said)"), "\(run.stderr)")
        #expect(run.stderr.contains(suggestion), "\(run.stderr)")
        let written = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
        // (stderr may list the skipped dispatch as the user typed it; the trace must not hold it.)
        #expect(!written.contains("S3CRET-TYPO"))
        #expect(!run.stderr.contains("→ auth.loginWithPattern"), "the dispatch ran: \(run.stderr)")
    }

    @Test func aRightSpecAndAStoreNotCreatedYetPass() async throws {
        let file = try StateHubBinary.script(Self.page, named: "auth.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("t.ndjson")
        let run = try await StateHubBinary.run(["run", file.path, "--trace", trace.path,
                                          "--redact-argument", "auth.loginWithPattern:1", "--redact-argument", "later.go:0",
                                          "--dispatch", #"auth.loginWithPattern("bob", "S3CRET-RIGHT", true)"#])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOf: trace, encoding: .utf8)
        #expect(written.contains("loginWithPattern"))
        #expect(!written.contains("S3CRET-RIGHT"))
    }
}
