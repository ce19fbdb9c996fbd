import Foundation
import Testing

/// The plugin's parameter-name scanner must not be fooled silently. A regex default could make
/// it return wrong names (`a = /,b=/` read as `["a","b","password"]` writes the password at
/// position 1 in clear), and a `'` in a regex, `p\u0061ssword`, an 849 KB list and a replaced
/// `Function.prototype.toString` could each leave the password in clear with no word. The
/// scanner gives up on each, and the run warns naming the store and action with the
/// `--redact-argument` that hides it.
@Suite("trace redaction: parameter lists the scanner gives up on are warned about", .tags(.integration))
struct ParameterScannerTests {
    static let store = #"""
        const big = '"' + 'x'.repeat(849 * 1024) + '"';
        const withBigList = new Function('return { big(a = ' + big + ', password) { return 1 } }')();
        const useS = defineStore('s', { state: () => ({ n: 0 }), actions: Object.assign({
          re(a = /,b=/, password) { return 1 },
          cut(a = /\)/, password) { return 1 },
          quote(a = /'/, password) { return 1 },
          esc(p\u0061ssword) { return 1 },
          ok(user, /* a comment, "quoted" */ password = 'a/b') { return 1 },
        }, withBigList) });
        useS();
        const original = Function.prototype.toString;
        Function.prototype.toString = function () {
          const text = original.call(this);
          return text.includes('password') ? 'function (user, name) {}' : text;
        };
        const useT = defineStore('t', { state: () => ({ n: 0 }), actions: { login(user, password) { return 1 } } });
        useT();
        """#

    /// (action, the reason the warning gives)
    static let givenUp: [(String, String, String)] = [
        ("s", "re", "a regular expression or a division in the list"),
        ("s", "cut", "a regular expression or a division in the list"),
        ("s", "quote", "a regular expression or a division in the list"),
        ("s", "esc", "an escape sequence in a name"),
        ("s", "big", "the parameter list is over 20000 characters"),
        ("t", "login", "Function.prototype.toString was replaced"),
    ]

    @Test func everyListTheScannerCannotReadIsWarnedAboutAndTheSuggestionHidesIt() async throws {
        let file = try StateHubBinary.script(Self.store, named: "hostile.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("hostile.ndjson")
        let dispatches = Self.givenUp.map { store, action, _ in ["--dispatch", "\(store).\(action)(\"u\", \"SECRET-\(action)\")"] }.joined()
            + ["--dispatch", #"s.ok("u", "SECRET-ok")"#]
        let run = try await StateHubBinary.run(["run", file.path, "--trace", trace.path] + dispatches)
        #expect(run.status == 0, "\(run.stderr)")
        for (store, action, reason) in Self.givenUp {
            #expect(run.stderr.contains("[StateHubSync] store \"\(store)\", action \"\(action)\": its parameter names could not be read (\(reason))"), "\(action): \(run.stderr)")
            #expect(run.stderr.contains("--redact-argument \(store).\(action):INDEX"), "\(action): \(run.stderr)")
        }
        // A list it reads is not warned about, and its password is hidden.
        #expect(!run.stderr.contains("action \"ok\""), "\(run.stderr)")
        let written = try String(contentsOf: trace, encoding: .utf8)
        #expect(!written.contains("SECRET-ok"))

        // The suggestion, followed, hides each one.
        let hidden = Self.givenUp.map { store, action, _ in ["--redact-argument", "\(store).\(action):1"] }.joined()
        let again = try await StateHubBinary.run(["run", file.path, "--trace", trace.path] + dispatches + Array(hidden))
        #expect(again.status == 0, "\(again.stderr)")
        let rewritten = try String(contentsOf: trace, encoding: .utf8)
        #expect(!rewritten.contains("SECRET"), "\(rewritten.components(separatedBy: "\n").filter { $0.contains("SECRET") }.prefix(3))")
    }
}
