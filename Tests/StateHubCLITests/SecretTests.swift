import Foundation
import Testing

/// A trace of a store whose token is set, changed and passed to actions
/// holds no secret, and neither does what `trace show` and `trace replay` print.
@Suite("secrets stay out of traces", .tags(.integration))
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

    /// Greps the trace file and what `trace show` and `trace replay` print for `SECRET`;
    /// returns the file's text and `trace show`'s result.
    static func expectNoSecret(in trace: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (String, StateHubBinary.Result) {
        let text = try String(contentsOf: trace, encoding: .utf8)
        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        let replay = try await StateHubBinary.run(["trace", "replay", trace.path])
        #expect(show.status == 0 && replay.status == 0, "\(show.stderr)\(replay.stderr)", sourceLocation: sourceLocation)
        for (name, output) in [("trace file", text), ("trace show", show.stdout + show.stderr), ("trace replay", replay.stdout + replay.stderr)] {
            #expect(!output.contains("SECRET"), "\(name) leaks: \(output.components(separatedBy: "\n").filter { $0.contains("SECRET") }.prefix(3))",
                    sourceLocation: sourceLocation)
        }
        return (text, show)
    }

    @Test func theSecretTestFindsNothing() async throws {
        let file = try StateHubBinary.script(Self.session, named: "session.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("session.ndjson")
        let run = try await StateHubBinary.run([
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
        let (file_, show) = try await Self.expectNoSecret(in: trace)
        // What is not secret is still there, and null stays null.
        #expect(file_.contains(#"\"user\":\"ana\""#))
        #expect(file_.contains(#"\"nothing\":null"#))
        #expect(show.stdout.contains("session.login(\"Ana\", \"[redacted]\")"), "\(show.stdout)")
    }

    /// An argument passed by position that nothing said was secret is written in clear until
    /// its value turns up under a secret name; `run` then says so and names the option.
    @Test func anArgumentWrittenInClearIsNamedWithTheOptionThatHidesIt() async throws {
        let file = try StateHubBinary.script(Self.session, named: "clear.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("clear.ndjson")
        let run = try await StateHubBinary.run(["run", file.path, "--dispatch", "session.setToken", #"["SECRET-ARG-333"]"#, "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: the trace holds argument session.setToken:0 in clear"), "\(run.stderr)")
        #expect(run.stderr.contains("--redact-argument session.setToken:0 hides it"), "\(run.stderr)")
        let hidden = try await StateHubBinary.run(["run", file.path, "--dispatch", "session.setToken", #"["SECRET-ARG-333"]"#,
                                             "--redact-argument", "session.setToken:0", "--trace", trace.path])
        #expect(hidden.status == 0 && !hidden.stderr.contains("warning: the trace holds argument"), "\(hidden.stderr)")
    }

    /// With no flags, an argument whose declared parameter has a sensitive
    /// name (`login(user, password)`, a setup store's `setToken(token)`) is hidden: the plugin
    /// names the parameters (docs/PROTOCOL.md A.5.1), the trace hides those positions.
    @Test func aParameterWithASensitiveNameIsHiddenWithoutFlags() async throws {
        let source = """
            const useSession = defineStore('session', { state: () => ({ user: null, signedIn: false }), actions: {
              login(user, password) { this.user = user; this.signedIn = true },
              check(user, /* shown */ password = '') { if (password !== 'x') throw new Error('wrong password ' + password) },
            } });
            const useAuth = defineStore('auth', () => {
              const has = ref(false);
              function setToken(token) { has.value = token.length > 0 }
              return { has, setToken };
            });
            useSession(); useAuth();
            """
        let file = try StateHubBinary.script(source, named: "login.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("login.ndjson")
        let run = try await StateHubBinary.run([
            "run", file.path,
            "--dispatch", #"session.login("Ana", "SECRET-PW-1234")"#,
            "--dispatch", #"session.check("Ana", "SECRET-PW-5678")"#,
            "--dispatch", #"auth.setToken("SECRET-TOKEN-9012")"#,
            "--trace", trace.path,
        ])
        #expect(run.status == 1, "session.check throws on purpose: \(run.stderr)")
        #expect(!run.stderr.contains("warning: the trace holds argument"), "\(run.stderr)")
        let (_, show) = try await Self.expectNoSecret(in: trace)
        // Only the sensitive position is hidden.
        #expect(show.stdout.contains(#"session.login("Ana", "[redacted]")"#), "\(show.stdout)")
        #expect(show.stdout.contains(#"auth.setToken("[redacted]")"#), "\(show.stdout)")
    }

    /// The scanner's give-up warning reaches `--json`'s diagnostics, not stderr only, so a
    /// machine reading the object knows the trace holds an argument in clear.
    @Test func theScannersWarningIsADiagnosticInJSON() async throws {
        let file = try StateHubBinary.script("defineStore('r', { state: () => ({ n: 0 }), actions: { login(user, password = /x/) {} } })();", named: "re.js")
        let run = try await StateHubBinary.run(["run", file.path, "--dispatch", #"r.login("u", "p")"#, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let diagnostics = try #require(try JSONOutputTests.object(run)["diagnostics"] as? [String], "\(run.stdout)")
        #expect(diagnostics.contains { $0.hasPrefix("[StateHubSync] store \"r\", action \"login\": its parameter names could not be read") && $0.contains("--redact-argument r.login:INDEX") },
                "\(diagnostics)")
        // A script's own console.warn stays out.
        let own = try StateHubBinary.script("console.warn('mine')", named: "own.js")
        let quiet = try await StateHubBinary.run(["run", own.path, "--json"])
        #expect((try JSONOutputTests.object(quiet)["diagnostics"] as? [String]) == [], "\(quiet.stdout)")
    }

    /// The scanner never leaks silently (the secret in clear in the trace, no warning) on a
    /// bound function with defaults, a Proxy whose `length` is 0, an HTML-like comment in the
    /// list, array patterns, a renamed binding, or a page that replaced String.prototype.trim or
    /// RegExp.prototype.exec. Each either hides the argument or warns naming the store and
    /// action; the tampered builtins change nothing.
    @Test func theScannerHidesOrWarnsNeverLeaksSilently() async throws {
        let source = """
            function mk(id, actions) { defineStore(id, { state: () => ({ n: 0 }), actions })(); }
            function lg(user = '', password = '') {}
            mk('bound', { login: lg.bind(undefined) });
            mk('prox', { login: new Proxy(function (user, password) {}, { get(t, k) { return k === 'length' ? 0 : t[k]; } }) });
            mk('html', { login: Function('user', 'x = 1 <!--, y\\n, password', '') });
            mk('arr', { login(user, [name, password]) {} });
            mk('restd', { login(user, ...[password]) {} });
            mk('ren', { login({ user, pw: password }) {} });
            defineStore('setup', () => { function login(user, [a, password]) {} return { login }; })();
            const trim = String.prototype.trim, exec = RegExp.prototype.exec, test = RegExp.prototype.test, push = Array.prototype.push;
            String.prototype.trim = function () { return 'harmless'; };
            RegExp.prototype.exec = function () { return null; };
            RegExp.prototype.test = function () { return false; };
            Array.prototype.push = function () { return 0; };
            mk('tampered', { login(user, password) {} });
            String.prototype.trim = trim; RegExp.prototype.exec = exec; RegExp.prototype.test = test; Array.prototype.push = push;
            """
        let file = try StateHubBinary.script(source, named: "leaks.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("leaks.ndjson")
        let warned = ["bound", "prox", "html", "arr", "restd", "ren", "setup"]
        var arguments = ["run", file.path, "--trace", trace.path, "--json"]
        for store in warned {
            arguments += ["--dispatch", store == "ren" ? #"\#(store).login({"user": "u", "pw": "SECRET-\#(store)"})"# : store == "arr" || store == "setup" ? #"\#(store).login("u", ["n", "SECRET-\#(store)"])"# : store == "restd" ? #"\#(store).login("u", "SECRET-\#(store)")"# : #"\#(store).login("u", "SECRET-\#(store)")"#]
        }
        arguments += ["--dispatch", #"tampered.login("u", "SECRET-tampered")"#]
        let run = try await StateHubBinary.run(arguments)
        #expect(run.status == 0, "\(run.stderr.prefix(2000))")
        let diagnostics = try #require(try JSONOutputTests.object(run)["diagnostics"] as? [String], "\(run.stdout)")
        for store in warned {
            #expect(diagnostics.contains { $0.hasPrefix("[StateHubSync] store \"\(store)\", action \"login\": its parameter names could not be read") }, "\(store): \(diagnostics)")
        }
        #expect(!diagnostics.contains { $0.contains("\"tampered\"") }, "\(diagnostics)")
        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains(#"tampered.login("u", "[redacted]")"#), "\(show.stdout.prefix(3000))")
        let recorded = try String(contentsOf: trace, encoding: .utf8)
        #expect(!show.stdout.contains("SECRET-tampered") && !recorded.contains("SECRET-tampered"))
    }

    /// Secrets that must not leak: a Map entry whose key is a sensitive name, and secrets
    /// written as prose (`token=…`, `password: …`, `Authorization: Bearer …`) in a page's
    /// `error` message, in an exception's text and in a stop.
    static let prose = """
        const useVault = defineStore('vault', {
          state: () => ({ config: new Map([['apiKey', 'SECRET-MAP-KEY-1'], ['region', 'eu']]), ok: true }),
          actions: {
            rotate() { this.config.set('apiKey', 'SECRET-MAP-KEY-2'); this.config.set('Authorization', 'Bearer SECRET-MAP-BEARER-3') },
            fail() { throw new Error('login failed: password=SECRET-THROWN-4 (Authorization: Bearer SECRET-THROWN-5)') },
            report() {
              // What a page's own error reporting might post: free text with credentials in it.
              window.webkit.messageHandlers.nativeBridge.postMessage(JSON.stringify({
                v: 1, storeId: 'vault', messageId: 'w-x', seq: 99, type: 'error',
                payload: { code: 'page_error', message: 'upstream said token=SECRET-ERROR-6; retry with password: SECRET-ERROR-7' },
              }))
            },
          },
        });
        useVault();
        """

    @Test func mapKeysAndSecretsInProseStayOut() async throws {
        let file = try StateHubBinary.script(Self.prose, named: "vault.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("vault.ndjson")
        let run = try await StateHubBinary.run([
            "run", file.path,
            "--dispatch", "vault.rotate", "--dispatch", "vault.report", "--dispatch", "vault.fail",
            "--trace", trace.path,
        ])
        #expect(run.status == 1, "vault.fail throws on purpose: \(run.stderr)")
        let text = try String(contentsOf: trace, encoding: .utf8)
        // The messages did reach the trace (so the test cannot pass on an empty file).
        #expect(text.contains(#"\"region\""#) && text.contains("page_error") && text.contains("login failed"), "\(text)")
        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        let replay = try await StateHubBinary.run(["trace", "replay", trace.path])
        for (name, output) in [("trace file", text), ("trace show", show.stdout + show.stderr), ("trace replay", replay.stdout + replay.stderr)] {
            #expect(!output.contains("SECRET"), "\(name) leaks: \(output.components(separatedBy: "\n").filter { $0.contains("SECRET") }.prefix(3))")
        }
    }
}
