import Foundation
import Testing

/// `statehub types`: writes, and `--check` says whether a committed file still matches (docs/types.md).
@Suite struct TypesCommandTests {
    static let store = """
        defineStore('shop', { state: () => ({ count: 1, items: [] }), actions: { add(item) { this.items.push(item); } } })();
        """

    @Test func checkPassesOnTheFileItWroteAndFailsOnceTheStoreChanges() throws {
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        let folder = script.deletingLastPathComponent()
        let output = folder.appendingPathComponent("Shop.swift")
        let written = try StateHubBinary.run(["types", script.path, "-o", output.path])
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("public struct ShopState: Codable, Equatable, Sendable {"))
        #expect(text.contains("public func add(_ item: JSONValue) async throws -> JSONValue {"))
        // Deterministic: stdout is the same text.
        #expect(try StateHubBinary.run(["types", script.path]).stdout == text)

        let same = try StateHubBinary.run(["types", script.path, "--check", output.path])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.isEmpty)

        // The store gains a field: the committed file is stale.
        try Self.store.replacingOccurrences(of: "count: 1,", with: "count: 1, total: 2.5,").write(to: script, atomically: true, encoding: .utf8)
        let stale = try StateHubBinary.run(["types", script.path, "--check", output.path])
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("no longer matches"))
        #expect(stale.stderr.contains("+     public var total: Double"))
        #expect(try String(contentsOf: output, encoding: .utf8) == text, "--check never writes")
    }

    @Test func argumentsAreCheckedFirst() throws {
        #expect(try StateHubBinary.run(["types"]).status == 2)
        #expect(try StateHubBinary.run(["types", "--from-trace", "/nonexistent/trace.ndjson"]).status == 2)
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        #expect(try StateHubBinary.run(["types", script.path, "-o", "a.swift", "--check", "b.swift"]).status == 2)
        #expect(try StateHubBinary.run(["types", script.path, "--check", "/nonexistent/Shop.swift"]).status == 2)
    }

    @Test func bridgeDeclarationsTypeTheFrameworkActions() throws {
        let script = try StateHubBinary.script(Self.store, named: "shop.js")
        let declarations = script.deletingLastPathComponent().appendingPathComponent("bridge.d.ts")
        let result = try StateHubBinary.run(["types", script.path, "--bridge-ts", declarations.path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: declarations, encoding: .utf8)
        #expect(text.contains(#""getInitialData": { payload: Record<string, never>; result: Record<string, unknown> }"#))
        #expect(text.contains(#""showAlert": { payload: { title?: string | null; message: string; buttons?: string[] | null }; result: { index: number } }"#))
        #expect(text.contains("export declare function invokeNative<A extends BridgeAction>"))
    }
}
