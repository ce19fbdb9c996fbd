import Foundation
import Testing

/// `statehub types`: writes, and `--check` says whether a committed file still matches (docs/types.md).
@Suite(.tags(.integration)) struct TypesCommandTests {
    static let store = """
        defineStore('shop', { state: () => ({ count: 1, items: [] }), actions: { add(item) { this.items.push(item); } } })();
        """

    @Test func checkPassesOnTheFileItWroteAndFailsOnceTheStoreChanges() async throws {
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        let folder = script.deletingLastPathComponent()
        let output = folder.appendingPathComponent("Shop.swift")
        let written = try await StateHubBinary.run(["types", script.path, "-o", output.path])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("public struct ShopState: Codable, Equatable, Sendable {"))
        #expect(text.contains("public func add(_ item: JSONValue) async throws -> JSONValue {"))
        // Deterministic: stdout is the same text.
        #expect(try await StateHubBinary.run(["types", script.path]).stdout == text)

        let same = try await StateHubBinary.run(["types", script.path, "--check", output.path])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.isEmpty)

        // The store gains a field: the committed file is stale.
        try Self.store.replacingOccurrences(of: "count: 1,", with: "count: 1, total: 2.5,").write(to: script, atomically: true, encoding: .utf8)
        let stale = try await StateHubBinary.run(["types", script.path, "--check", output.path])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("no longer matches"))
        #expect(stale.stderr.contains("+     public var total: Double"))
        #expect(try String(contentsOf: output, encoding: .utf8) == text, "--check never writes")
    }

    @Test func argumentsAreCheckedFirst() async throws {
        #expect(try await StateHubBinary.run(["types"]).status == 2)
        #expect(try await StateHubBinary.run(["types", "--from-trace", "/nonexistent/trace.ndjson"]).status == 2)
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        #expect(try await StateHubBinary.run(["types", script.path, "-o", "a.swift", "--check", "b.swift"]).status == 2)
        #expect(try await StateHubBinary.run(["types", script.path, "--check", "/nonexistent/Shop.swift"]).status == 2)
    }

    /// A file that creates no store (defineStore without useStore, or no store at all) says so on
    /// stderr instead of writing a file of one import in silence.
    @Test func filesWithNoStoreSaySo() async throws {
        let script = try StateHubBinary.script("defineStore('shop', { state: () => ({ n: 1 }) });", named: "nostore.js")
        let result = try await StateHubBinary.run(["types", script.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("no store found"), "\(result.stderr)")
        #expect(!result.stdout.contains("struct"))
    }

    @Test func bridgeDeclarationsTypeTheFrameworkActions() async throws {
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        let declarations = script.deletingLastPathComponent().appendingPathComponent("bridge.d.ts")
        let result = try await StateHubBinary.run(["types", script.path, "--bridge-ts", declarations.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: declarations, encoding: .utf8)
        #expect(text.contains(#""getInitialData": { payload: Record<string, never>; result: Record<string, unknown> }"#))
        #expect(text.contains(#""showAlert": { payload: { title?: string | null; message: string; buttons?: string[] | null }; result: { index: number } }"#))
        #expect(text.contains("export declare function invokeNative<A extends BridgeAction>"))
    }
}

/// `statehub types --from-trace`: what traces teach, and traces that try to hurt.
@Suite(.tags(.integration)) struct TypesFromTraceTests {
    static func record(step: Int, direction: String = "web_to_native", store: String, type: String, message: String) -> String {
        let fields: [String: Any] = ["channel": "nativeBridge", "direction": direction, "engine": "main", "message": message,
                                     "size": message.utf8.count, "step": step, "store": store, "time": step * 1000, "type": type]
        let data = try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aTraceAloneGivesTheStoresItSaw() async throws {
        let result = try await StateHubBinary.run(["types", "--from-trace", "Examples/Types/examples.ndjson"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("public struct CartState: Codable, Equatable, Sendable {"))
        #expect(result.stdout.contains("public var price: Double"))
        #expect(result.stdout.contains("public func add(_ item: AddItem) async throws -> JSONValue {"))
        // Named by actionParameters only in the trace (greet was dispatched too).
        #expect(result.stdout.contains("public func greet(_ name: String) async throws -> JSONValue {"))
    }

    @Test func hostileTracesGiveTypesOrATypedErrorNeverACrash() async throws {
        var deep = "1"
        for _ in 0 ..< 400 { deep = "{\"next\":\(deep)}" }
        var wide = [String]()
        for i in 0 ..< 10_000 { wide.append("\"k\(i)\":\(i % 2 == 0 ? "1" : "\"s\"")") }
        let keys = #"{"class":"c","":2,"a-b":true,"__proto__":4,"self":5}"#  // mixed kinds: a struct, not a dictionary
        let state = "{\"deep\":\(deep),\"wide\":{\(wide.joined(separator: ","))},\"keys\":\(keys)}"
        let lines = [
            Self.record(step: 0, store: "h", type: "sync_state",
                        message: #"{"v":1,"storeId":"h","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":"# + state + #","reason":"created"}}"#),
            Self.record(step: 1, direction: "native_to_web", store: "h", type: "dispatch_action",
                        message: #"{"v":1,"storeId":"h","messageId":"n1","type":"dispatch_action","payload":{"action":"go","args":["# + deep + "]}}"),
        ]
        let trace = try StateHubBinary.script(lines.joined(separator: "\n") + "\n", named: "hostile.ndjson")
        let result = try await StateHubBinary.run(["types", "--from-trace", trace.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("public var wide: JSONValue"))
        #expect(result.stdout.contains("case empty = \"\""))
        #expect(result.stdout.contains("case self_ = \"self\""))
        #expect(result.stdout.contains("public func go(_ argument0: GoArgument0) async throws -> JSONValue {"))
        // 400 levels: nested types to the depth cap, then JSONValue.
        #expect(result.stdout.contains("public var next: JSONValue"))

        // Past the parser's depth cap (512): a typed error naming the trace, exit 2.
        var tooDeep = "1"
        for _ in 0 ..< 1_000 { tooDeep = "[\(tooDeep)]" }
        let bad = try StateHubBinary.script(Self.record(step: 0, store: "h", type: "sync_state", message: "x") .replacingOccurrences(of: "\"step\":0", with: "\"step\":0,\"extra\":\(tooDeep)") + "\n", named: "deep.ndjson")
        let refused = try await StateHubBinary.run(["types", "--from-trace", bad.path])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("--from-trace"))
    }
}
