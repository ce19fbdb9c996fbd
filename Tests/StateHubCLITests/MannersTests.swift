import Foundation
import Testing

/// Issue 12 item 7: errors that list what exists and suggest the nearest name.
@Suite("CLI manners")
struct MannersTests {
    @Test func unknownNamesListWhatExistsAndSuggest() throws {
        let typoStore = try StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "crat.add"])
        #expect(typoStore.status == 1)
        #expect(typoStore.stderr.contains("did you mean \"cart\"?"), "\(typoStore.stderr)")
        let typoAction = try StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.ad"])
        #expect(typoAction.status == 1)
        #expect(typoAction.stderr.contains("did you mean \"add\"?"), "\(typoAction.stderr)")
        #expect(typoAction.stderr.contains("actions: "), "\(typoAction.stderr)")
    }

    /// New-user review: `--dispatch` reads up to the next option, so files written after it
    /// were taken as dispatches; they are now loaded, in order.
    @Test func filesAfterADispatchAreLoaded() throws {
        let result = try StateHubBinary.run(["run", "--dispatch", "cart.add", #"[{"sku":"A1","qty":2}]"#, "js/examples/cart.js"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ cart.add("), "\(result.stdout)")
        let bare = try StateHubBinary.run(["run", "--dispatch", "cart.add", "js/examples/cart.js"])
        #expect(bare.status != 2, "\(bare.stderr)")
        #expect(!bare.stderr.contains("store \"js\""), "\(bare.stderr)")
    }

    /// The suggestion for arguments that are not a JSON array is itself valid JSON.
    @Test func theArgumentSuggestionIsValidJSON() throws {
        let result = try StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", "notjson"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"e.g. '["notjson"]', not notjson"#), "\(result.stderr)")
        let number = try StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", "5"])
        #expect(number.stderr.contains("e.g. '[5]', not 5"), "\(number.stderr)")
    }

    @Test func aStoreDefinedButNotCreatedSaysSo() throws {
        let file = try StateHubBinary.script("const useLater = defineStore('later', { state: () => ({ n: 0 }), actions: { inc() { this.n++ } } });\n", named: "later.js")
        let result = try StateHubBinary.run(["run", file.path, "--dispatch", "later.inc"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("store \"later\" is defined but not created"), "\(result.stderr)")
    }

    @Test func jsonOutputAndShellOptions() throws {
        let file = try StateHubBinary.script("""
            const useS = defineStore('s', { state: () => ({ data: null, answer: -1 }), actions: {
              async load() { this.data = await invokeNative('getInitialData', {}); this.answer = await invokeNative('showAlert', { title: 't', message: 'm', buttons: ['No', 'Yes'] }) },
            } });
            useS();
            """, named: "shell.js")
        let result = try StateHubBinary.run(["run", file.path, "--dispatch", "s.load", "--initial-data", #"{"user":"bo"}"#, "--alert-answer", "1", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""ok":true"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""user":"bo""#), "\(result.stdout)")
        let bad = try StateHubBinary.run(["run", file.path, "--initial-data", "[1]"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("must be a JSON object"))
    }

    @Test func unreadableFilesExitTwoEverywhere() throws {
        for arguments in [["eval", "/nonexistent.js"], ["run", "/nonexistent.js"], ["trace", "show", "/nonexistent.ndjson"],
                          ["theme", "check", "/nonexistent.json"], ["theme", "css", "/nonexistent.json"], ["bundle", "/nonexistent.mjs"]] {
            let result = try StateHubBinary.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }
}
