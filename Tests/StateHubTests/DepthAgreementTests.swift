import JSEngine
import StateHubJSON
import Synchronization
import Testing
@testable import StateHub

/// The plugin and the hub count a state's depth the same way (docs/PROTOCOL.md A.8.1, state
/// levels of the encoded state) and agree at the cap, through the real engine: within the cap
/// a store is created and mirrored whole; past it the plugin sends the offending container as
/// `null`, says so on the page's console and to native (a hub problem), and nothing is lost
/// without a word.
@Suite("Depth caps agree", .tags(.engine))
struct DepthAgreementTests {
    static let cap = JSONValue.maximumStateDepth

    enum Shape: String, CaseIterable, Sendable { case object, array, map }

    /// JavaScript building a value whose state depth at path ["v"] makes the store's whole state
    /// exactly `depth` levels deep (the root object is level 1).
    static func builder(_ shape: Shape, depth: Int) -> String {
        switch shape {
        case .object:
            // root + (depth - 1) objects, a scalar inside the innermost.
            return "(() => { let o = { x: 1 }; for (let i = 1; i < \(depth - 1); i++) o = { x: o }; return o })()"
        case .array:
            return "(() => { let a = [1]; for (let i = 1; i < \(depth - 1); i++) a = [a]; return a })()"
        case .map:
            // A non-empty Map is three levels (tag, "entries", pair); the rest is padded with objects.
            let maps = (depth - 1) / 3
            let padding = (depth - 1) % 3
            return """
                (() => { let inner = 1; for (let i = 0; i < \(padding); i++) inner = { x: inner };
                  let m = inner; for (let i = 0; i < \(maps); i++) m = new Map([['k', m]]); return m })()
                """
        }
    }

    /// The engine's own state of `store`, encoded as the plugin encodes it, read with a parser
    /// allowance large enough for anything the test builds.
    static func encodedState(_ engine: JavaScriptEngine, _ store: String) async throws -> JSONValue {
        let text = try await engine.evaluate("JSON.stringify(StateHubSync.encodeValue(getActivePinia().state.value['\(store)']))")
        return try JSONValue(parsing: text.stringValue ?? "", options: JSONParsingOptions(maximumDepth: 4 * cap))
    }

    @Test(arguments: Shape.allCases, [-1, 0, 1])
    func pluginAndHubAgreeAroundTheCap(shape: Shape, offset: Int) async throws {
        let depth = Self.cap + offset
        let warnings = Mutex<[String]>([])
        let hub = GlobalStateHub()
        let engine = try JavaScriptEngine(configuration: .init(name: "depth-\(shape)-\(offset)", onConsole: { message in
            if message.level == .warn || message.level == .error { warnings.withLock { $0.append(message.text) } }
        }))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime()
        try await engine.execute("""
            defineStore('deep', { state: () => ({ n: 0, v: \(Self.builder(shape, depth: depth)) }),
              actions: { touch() { this.n++ } } })()
            """, sourceURL: "deep.js")
        // Created and mirrored in every case (never "defined but not created").
        #expect(await mirror(of: hub, "deep") { $0 != nil })
        let mirrored = try #require(hub.state(of: "deep"))
        #expect(mirrored.nestingDepth(upTo: 4 * Self.cap) <= Self.cap)
        if offset <= 0 {
            #expect(mirrored.nestingDepth(upTo: 4 * Self.cap) == depth)
            #expect(mirrored == (try await Self.encodedState(engine, "deep")))
            #expect(hub.problems.isEmpty, "\(hub.problems)")
            #expect(warnings.withLock { $0 }.isEmpty)
        } else {
            // The container that went over is null in the mirror; the page said so, on its
            // console and to native, where it is a problem (so the CLI exits non-zero).
            #expect(mirrored.nestingDepth(upTo: 4 * Self.cap) < depth)
            #expect(hub.problems.contains { problem in
                if case .reportedByPage("state_too_deep", _, _) = problem.kind { problem.storeId == "deep" } else { false }
            }, "\(hub.problems)")
            #expect(warnings.withLock { $0 }.contains { $0.contains("state_too_deep") && $0.contains("\"deep\"") })
            #expect(!hub.problems.contains { if case .tooDeep = $0.kind { true } else { false } })
        }
        // The store keeps working: a dispatch after it is mirrored.
        try await hub.dispatch(store: "deep", action: "touch")
        #expect(hub.state(of: "deep")?["n"] == 1)
        await engine.close()
    }

    /// A write that takes the state past the cap after the store exists: the plugin sends it
    /// capped and reports it; the hub applies what it got and the page is never silently ahead.
    @Test func aWritePastTheCapIsReportedWhereItHappens() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "depth-write")
        try await engine.execute("""
            defineStore('deep', { state: () => ({ v: \(Self.builder(.object, depth: Self.cap)) }),
              actions: { deeper() { let o = this.v; while (o.x !== 1) o = o.x; o.x = { y: new Map([['k', 1]]) } } } })()
            """, sourceURL: "deep.js")
        #expect(await mirror(of: hub, "deep") { $0 != nil })
        try await hub.dispatch(store: "deep", action: "deeper")
        #expect(hub.problems.contains { if case .reportedByPage("state_too_deep", _, _) = $0.kind { true } else { false } }, "\(hub.problems)")
        #expect((hub.state(of: "deep")?.nestingDepth(upTo: 4 * Self.cap) ?? 0) <= Self.cap)
        await engine.close()
    }

    /// The hub's raw JSON allowance follows from the state cap: every message whose state is
    /// within the cap parses (scalars innermost, the deepest envelope of all), and one nested
    /// past the allowance is answered as too deep, with the page told and asked once.
    @Test func rawNestingAllowanceFollowsFromTheStateCap() async throws {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }
        // A state exactly at the cap: the root object and cap - 1 arrays around a scalar.
        hub.receive(Wire.syncState("deep", seq: 1, state: #"{"v":\#(nested(Self.cap - 1))}"#), from: "p")
        #expect(hub.state(of: "deep")?.nestingDepth(upTo: 4 * Self.cap) == Self.cap)
        // A `set` at the root with a whole state at the cap: the deepest envelope of all.
        hub.receive(Wire.mutation("deep", seq: 2, ops: #"{"op":"set","path":[],"value":{"w":\#(nested(Self.cap - 1))}}"#), from: "p")
        #expect(hub.state(of: "deep")?["w"] != nil)
        // A splice item at the cap: path 1 + the array + item.
        hub.receive(Wire.mutation("deep", seq: 3, ops: #"{"op":"set","path":["list"],"value":[]}"#), from: "p")
        hub.receive(Wire.mutation("deep", seq: 4, ops: #"{"op":"splice","path":["list"],"index":0,"deleteCount":0,"items":[\#(nested(Self.cap - 2))]}"#), from: "p")
        #expect(hub.state(of: "deep")?.nestingDepth(upTo: 4 * Self.cap) == Self.cap)
        #expect(hub.problems.isEmpty, "\(hub.problems)")
        #expect(page.types.isEmpty)

        // Past the parser's allowance: the same answer as a state measured too deep.
        hub.receive(Wire.mutation("deep", seq: 5, ops: #"{"op":"set","path":["z"],"value":\#(nested(JSONValue.maximumMessageNesting))}"#), from: "p")
        #expect(hub.problems == [HubProblem(pageID: "p", storeId: "deep", kind: .tooDeep(depth: Self.cap + 1, limit: Self.cap))])
        #expect(page.types == ["error", "request_sync"])
        #expect(page.messages.first?["payload"]?["code"] == "too_deep")
        #expect(page.messages.last?["payload"]?["reason"] == "too_deep")
        #expect(hub.state(of: "deep")?["z"] == nil)
    }
}
