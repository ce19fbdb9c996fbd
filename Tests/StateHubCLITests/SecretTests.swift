import Foundation
import Testing

/// Issue 12 item 5: a trace of a store whose token is set, changed and passed to actions
/// holds no secret, and neither does what `trace show` and `trace replay` print.
@Suite("secrets stay out of traces")
struct SecretTests {
    static let session = """
        const useSession = defineStore('session', {
          state: () => ({ user: 'ana', token: 'SECRET-INITIAL-111', headers: {}, url: null, nothing: null }),
          actions: {
            setToken(t) { this.token = t },
            login(user, password) { this.user = user; return 'ok' },
            call(config) { this.headers = { Authorization: 'Bearer ' + config.apiKey }; return config.apiKey.length },
            connect() { this.url = 'https://ana:SECRET-URLPASS-555@api.example.com/v1?access_token=SECRET-QUERY-666&x=1' },
            replaceAll() { this.$patch({ token: 'SECRET-PATCH-888' }); this.$state = { user: 'bo', token: 'SECRET-STATE-999', headers: {}, url: null, nothing: null } },
            fail() { throw new Error('token rejected: ' + this.token) },
          },
        });
        const s = useSession();
        s.token = 'SECRET-CHANGED-222';
        """

    @Test func theSecretTestFindsNothing() throws {
        let file = try StateHubBinary.script(Self.session, named: "session.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("session.ndjson")
        let run = try StateHubBinary.run([
            "run", file.path,
            "--dispatch", "session.setToken", #"["SECRET-ARG-333"]"#,
            "--dispatch", "session.login", #"["Ana","SECRET-PW-444"]"#,
            "--dispatch", "session.call", #"[{"apiKey":"SECRET-KEY-777"}]"#,
            "--dispatch", "session.connect",
            "--dispatch", "session.replaceAll",
            "--dispatch", "session.fail",
            "--redact-argument", "session.setToken:0", "--redact-argument", "session.login:1",
            "--trace", trace.path,
        ])
        #expect(run.status == 1, "session.fail throws on purpose: \(run.stderr)")
        let file_ = try String(contentsOf: trace, encoding: .utf8)
        let show = try StateHubBinary.run(["trace", "show", trace.path])
        let replay = try StateHubBinary.run(["trace", "replay", trace.path])
        #expect(show.status == 0 && replay.status == 0, "\(show.stderr)\(replay.stderr)")
        for (name, text) in [("trace file", file_), ("trace show", show.stdout + show.stderr), ("trace replay", replay.stdout + replay.stderr)] {
            #expect(!text.contains("SECRET"), "\(name) leaks: \(text.components(separatedBy: "\n").filter { $0.contains("SECRET") }.prefix(3))")
        }
        // What is not secret is still there, and null stays null.
        #expect(file_.contains(#"\"user\":\"ana\""#))
        #expect(file_.contains(#"\"nothing\":null"#))
        #expect(show.stdout.contains("session.login(\"Ana\", \"[redacted]\")"), "\(show.stdout)")
    }
}
