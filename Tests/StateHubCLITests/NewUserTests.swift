import Foundation
import Testing

/// What a new user meets first (issue 12, session 12 walk-through): the examples do what
/// their comments say, and `run` with nothing to run says what it wants.
@Suite("first steps", .tags(.integration))
struct NewUserTests {
    /// js/examples/hello.js was a one-line placeholder printing "placeholder".
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

    /// `trace show` named the action only on the first of consecutive records: two calls of
    /// `cart.add` in a row read as one.
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

    /// `statehub run` alone printed an empty shell and exited 0.
    @Test func runWithNothingToRunSaysWhatItWants() async throws {
        let result = try await StateHubBinary.run(["run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("run needs script files to load, e.g. statehub run js/examples/cart.js"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
