import Foundation
import Testing

/// `authToken`, `pin`, `otp` and their kind are secret
/// by default, and a value hidden once stays hidden where it shows up later — a later
/// dispatch's positional argument, an exception's text, a bridge payload — in the trace file
/// and in what `trace show` prints.
@Suite("secret names and their echoes stay out of traces", .tags(.integration))
struct SecretNameTests {
    static let store = """
        const useAuth = defineStore('auth', {
          state: () => ({ user: 'ana', authToken: 'SECRET-AUTH-TOKEN-1', pin: 'SECRET-PIN-2', otp: null }),
          actions: {
            receive(code) { this.otp = code },
            use(token) { if (token !== this.authToken) throw new Error('no match'); return 'used' },
            fail() { throw new Error('rejected ' + this.authToken + ' with ' + this.pin) },
            async share() { await invokeNative('showAlert', { message: 'your pin ' + this.pin }) },
          },
        });
        useAuth();
        """

    @Test func defaultNamesAndLaterEchoesFindNothing() async throws {
        let file = try StateHubBinary.script(Self.store, named: "auth.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("auth.ndjson")
        let run = try await StateHubBinary.run([
            "run", file.path,
            "--dispatch", "auth.use", #"["SECRET-AUTH-TOKEN-1"]"#,
            "--dispatch", "auth.share",
            "--dispatch", "auth.fail",
            "--trace", trace.path,
        ])
        #expect(run.status == 1, "auth.fail throws on purpose: \(run.stderr)")
        let written = try String(contentsOf: trace, encoding: .utf8)
        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(show.status == 0, "\(show.stderr)")
        for (name, text) in [("trace file", written), ("trace show", show.stdout + show.stderr)] {
            #expect(!text.contains("SECRET"), "\(name) leaks: \(text.components(separatedBy: "\n").filter { $0.contains("SECRET") }.prefix(3))")
        }
        #expect(written.contains(#"\"user\":\"ana\""#))
        #expect(show.stdout.contains("auth.use(\"[redacted]\")"), "\(show.stdout)")
    }
}
