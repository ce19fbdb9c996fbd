import Foundation
import Testing

/// What a new user meets first: the examples do what their comments say, `run` with nothing
/// to run says what it wants, and a script's own output reaches the terminal as it printed it.
@Suite("first steps", .tags(.integration))
struct NewUserTests {
    /// js/examples/hello.js greets as its comment says.
    @Test func theHelloExampleRunsAsItsCommentSays() async throws {
        let result = try await StateHubBinary.run(["run", "js/examples/hello.js", "--dispatch", #"hello.greet("Ana")"#])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"→ hello.greet("Ana") = "Hello, Ana!""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""count": 1"#))
        let source = try String(contentsOf: StateHubBinary.packageRoot.appendingPathComponent("js/examples/hello.js"), encoding: .utf8)
        #expect(source.contains(#"statehub run js/examples/hello.js --dispatch 'hello.greet("Ana")'"#))
    }

    /// The micro-app example's comment says how to run it; its page already has the bridge client.
    @Test func theMicroAppExampleRunsAsItsCommentSays() async throws {
        let result = try await StateHubBinary.run(["run", "js/examples/micro-app.js", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONOutputTests.object(result)
        let shell = try #require(object["shell"] as? [String: Any])
        #expect((shell["loading"] as? [String: Any])?["state"] as? String == "finished")
        #expect((shell["alerts"] as? [[String: Any]])?.first?["message"] as? String == "Hello u-42")
    }

    /// `trace show` names the action on every record of it: two calls of `cart.add` in a row
    /// read as two.
    @Test func traceShowNamesTheActionOnEveryRecordOfIt() async throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-twice-\(UUID().uuidString).ndjson")
        let pen = #"[{"id":"p1","name":"Pen","price":1.5}]"#
        let run = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", pen, "--dispatch", "cart.add", pen, "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        // dispatch, mutation, result: three records per call, each naming its action.
        #expect(shown.stdout.components(separatedBy: "in cart.add\n").count - 1 == 6, "\(shown.stdout)")
    }

    /// `statehub run` alone says what it wants and exits 2.
    @Test func runWithNothingToRunSaysWhatItWants() async throws {
        let result = try await StateHubBinary.run(["run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("run needs script files to load, e.g. statehub run js/examples/cart.js"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A tool that prints JSON with `console.log` gets every byte of it, as under node;
    /// only StateHub's own lines are cut. A store-only page prints no shell block.
    @Test func aScriptsOwnLongOutputPassesThroughWhole() async throws {
        let items = (0..<2_000).map { "\"item-\($0)\"" }.joined(separator: ",")
        let script = try StateHubBinary.script("""
            console.log(JSON.stringify({ items: [\(items)] }));
            console.error('E' + 'x'.repeat(9000));
            defineStore('quiet', { state: () => ({ n: 1 }) })();
            """, named: "long-output.js")
        let result = try await StateHubBinary.run(["run", script.path])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("{\"items\"") })
        #expect(printed.utf8.count > 20_000, "cut to \(printed.utf8.count) bytes")
        let object = try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Any]
        #expect((object?["items"] as? [String])?.count == 2_000)
        #expect(result.stderr.contains("E" + String(repeating: "x", count: 9000) + "\n"), "console.error cut")
        #expect(!result.stdout.contains("shell = {"), "\(result.stdout)")
        #expect(result.stdout.contains("quiet = {"), "\(result.stdout)")
    }

    /// A shell developer sees a store's getters from the CLI: `--json` has them beside the
    /// state, and `trace replay` prints them.
    @Test func gettersShowInRunJSONAndTraceReplay() async throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-getters-\(UUID().uuidString).ndjson")
        let result = try await StateHubBinary.run(["run", "js/examples/cart.js", "--dispatch", "cart.add", #"[{"id":"p1","name":"Pen","price":1.5,"qty":2}]"#,
                                                   "--json", "--trace", trace.path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONOutputTests.object(result)
        let cart = try #require((object["getters"] as? [String: Any])?["cart"] as? [String: Any], "\(result.stdout)")
        #expect(cart["count"] as? Int == 2 && cart["total"] as? Double == 3, "\(cart)")
        let replay = try await StateHubBinary.run(["trace", "replay", trace.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("cart getters = {\n  \"count\": 2,\n  \"total\": 3\n}"), "\(replay.stdout)")
    }
}
