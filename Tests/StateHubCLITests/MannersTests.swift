import Foundation
import Testing

/// Errors that list what exists and suggest the nearest name.
@Suite("CLI manners", .tags(.integration))
struct MannersTests {
    @Test func unknownNamesListWhatExistsAndSuggest() async throws {
        let typoStore = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "crat.add"])
        #expect(typoStore.status == 1)
        #expect(typoStore.stderr.contains("did you mean \"cart\"?"), "\(typoStore.stderr)")
        let typoAction = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.ad"])
        #expect(typoAction.status == 1)
        #expect(typoAction.stderr.contains("did you mean \"add\"?"), "\(typoAction.stderr)")
        #expect(typoAction.stderr.contains("actions: "), "\(typoAction.stderr)")
    }

    /// `--dispatch` reads up to the next option, yet files written after it are loaded, in
    /// order, not taken as dispatches.
    @Test func filesAfterADispatchAreLoaded() async throws {
        let result = try await StateHubBinary.run(["run", "--dispatch", "cart.add", #"[{"sku":"A1","qty":2}]"#, "js/examples/cart.js"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ cart.add("), "\(result.stdout)")
        let bare = try await StateHubBinary.run(["run", "--dispatch", "cart.add", "js/examples/cart.js"])
        #expect(bare.status != 2, "\(bare.stderr)")
        #expect(!bare.stderr.contains("store \"js\""), "\(bare.stderr)")
    }

    /// The suggestion for arguments that are not a JSON array is itself valid JSON.
    @Test func theArgumentSuggestionIsValidJSON() async throws {
        let result = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", "notjson"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"e.g. '["notjson"]', not notjson"#), "\(result.stderr)")
        let number = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", "5"])
        #expect(number.stderr.contains("e.g. '[5]', not 5"), "\(number.stderr)")
    }

    @Test func aStoreDefinedButNotCreatedSaysSo() async throws {
        let file = try StateHubBinary.script("const useLater = defineStore('later', { state: () => ({ n: 0 }), actions: { inc() { this.n++ } } });\n", named: "later.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "later.inc"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("store \"later\" is defined but not created"), "\(result.stderr)")
    }

    @Test func jsonOutputAndShellOptions() async throws {
        let file = try StateHubBinary.script("""
            const useS = defineStore('s', { state: () => ({ data: null, answer: -1 }), actions: {
              async load() { this.data = await invokeNative('getInitialData', {}); this.answer = await invokeNative('showAlert', { title: 't', message: 'm', buttons: ['No', 'Yes'] }) },
            } });
            useS();
            """, named: "shell.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.load", "--initial-data", #"{"user":"bo"}"#, "--alert-answer", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""ok":true"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""user":"bo""#), "\(result.stdout)")
        let bad = try await StateHubBinary.run(["run", file.path, "--initial-data", "[1]"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("must be a JSON object"))
    }

    /// Results print as JavaScript shows them, so `undefined` is not `null`.
    @Test func resultsPrintAsJavaScriptShowsThem() async throws {
        let file = try StateHubBinary.script("""
            const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
              nothing() { this.n++ },
              none() { return null },
              async later() { await null },
              mixed() { return { a: undefined, b: [undefined, 1], big: 12n, nan: NaN, m: new Map([['k', undefined]]), set: new Set([1]), $type: 'x' } },
            } });
            useS();
            console.log(undefined, [undefined, 1], { a: undefined, f() {} }, 5n);
            """, named: "results.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.nothing", "--dispatch", "s.none",
                                             "--dispatch", "s.later", "--dispatch", "s.mixed"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == #"undefined [undefined,1] {"a":undefined,"f":[Function: f]} 5n"#, "\(result.stdout)")
        #expect(lines.contains("→ s.nothing() = undefined"), "\(result.stdout)")
        #expect(lines.contains("→ s.none() = null"), "\(result.stdout)")
        #expect(lines.contains("→ s.later() = undefined"), "\(result.stdout)")
        #expect(lines.contains(#"→ s.mixed() = {"a":undefined,"b":[undefined,1],"big":12n,"nan":NaN,"m":Map(1) {"k" => undefined},"set":Set(1) {1},"$type":"x"}"#), "\(result.stdout)")
        // `--json` keeps the tagged form of docs/PROTOCOL.md A.3, which JSON can carry.
        let json = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.nothing", "--dispatch", "s.none", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""dispatch":"s.nothing","ok":true,"value":{"$type":"undefined"}"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""dispatch":"s.none","ok":true,"value":null"#), "\(json.stdout)")
    }

    @Test func unreadableFilesExitTwoEverywhere() async throws {
        for arguments in [["eval", "/nonexistent.js"], ["run", "/nonexistent.js"], ["trace", "show", "/nonexistent.ndjson"],
                          ["theme", "check", "/nonexistent.json"], ["theme", "css", "/nonexistent.json"], ["bundle", "/nonexistent.mjs"]] {
            let result = try await StateHubBinary.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }
}
