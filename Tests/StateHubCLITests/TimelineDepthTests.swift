import Foundation
import JSEngine
import Testing

/// `trace show` reads a message as deep as the hub parses one (`JSONValue.maximumMessageNesting`):
/// an `apply_mutation` whose state is within the depth cap but whose envelope takes it past the
/// parser's default depth used to show no change at all.
@Suite("timeline depth")
struct TimelineDepthTests {
    @Test func aChangeNearTheStateDepthCapIsShown() throws {
        let file = try StateHubBinary.script("""
            function deep(n) { let v = { leaf: 1 }; for (let i = 0; i < n; i++) v = { d: v }; return v; }
            const useDeep = defineStore('deep', { state: () => ({ tree: deep(505) }), actions: { poke() { this.tree = deep(506) } } });
            useDeep();
            """, named: "deep.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("deep.ndjson")
        let run = try StateHubBinary.run(["run", file.path, "--dispatch", "deep.poke()", "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let show = try StateHubBinary.run(["trace", "show", "--json", trace.path])
        #expect(show.status == 0, "\(show.stderr)")
        let object = try JSONValue(parsing: show.stdout, options: JSONParsingOptions(maximumDepth: 4096))
        let mutations = (object["steps"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "apply_mutation" && $0["store"]?.stringValue == "deep" }
        #expect(mutations.count == 1)
        let changes = mutations.first?["changes"]?.arrayValue ?? []
        #expect(changes.map { $0["path"]?.stringValue } == ["tree"])
        #expect(changes.first?["kind"]?.stringValue == "set")
    }
}
