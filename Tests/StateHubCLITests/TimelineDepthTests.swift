import Foundation
import JSEngine
import Testing

/// `trace show` reads a message as deep as the hub parses one (`JSONValue.maximumMessageNesting`):
/// an `apply_mutation` whose state is within the depth cap but whose envelope takes it past the
/// parser's default depth still shows its change.
@Suite("timeline depth", .tags(.integration))
struct TimelineDepthTests {
    @Test func aChangeNearTheStateDepthCapIsShown() async throws {
        let file = try StateHubBinary.script("""
            function deep(n) { let v = { leaf: 1 }; for (let i = 0; i < n; i++) v = { d: v }; return v; }
            const useDeep = defineStore('deep', { state: () => ({ tree: deep(505) }), actions: { poke() { this.tree = deep(506) } } });
            useDeep();
            """, named: "deep.js")
        let trace = file.deletingLastPathComponent().appendingPathComponent("deep.ndjson")
        let run = try await StateHubBinary.run(["run", file.path, "--dispatch", "deep.poke()", "--trace", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let show = try await StateHubBinary.run(["trace", "show", "--json", trace.path])
        #expect(show.status == 0, "\(show.stderr)")
        let object = try JSONValue(parsing: show.stdout, options: JSONParsingOptions(maximumDepth: 4096))
        let mutations = (object["steps"]?.arrayValue ?? []).filter { $0["type"]?.stringValue == "apply_mutation" && $0["store"]?.stringValue == "deep" }
        #expect(mutations.count == 1)
        let changes = mutations.first?["changes"]?.arrayValue ?? []
        #expect(changes.map { $0["path"]?.stringValue } == ["tree"])
        #expect(changes.first?["kind"]?.stringValue == "set")
    }

    /// The timeline's bounds hold in the CLI too: writes far
    /// past an array's end adding more than one null per 8 bytes of an 8 MiB trace are refused by
    /// `trace show`, `--json` and `trace view`, naming the bound, instead of growing the state.
    @Test func aTraceThatGrowsArraysPastTheBoundIsRefused() async throws {
        let folder = try Self.temporaryFolder("grow")
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = Self.recordLine
        let ops = (1...12).map { #"{"op":"set","path":["arr",\#($0 * 100_000)],"value":1}"# }.joined(separator: ",")
        let trace = folder.appendingPathComponent("grow.ndjson")
        try (line(0, "sync_state", #"{"type":"sync_state","payload":{"state":{"arr":[]}}}"#) + "\n"
             + line(1, "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[\#(ops)]}]}}"#) + "\n")
            .write(to: trace, atomically: true, encoding: .utf8)
        let bound = "grow arrays by more than 1048576 nulls in all"
        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(show.status == 2 && show.stderr.contains(bound), "\(show.stderr)")
        let json = try await StateHubBinary.run(["trace", "show", "--json", trace.path])
        #expect(json.status == 2 && json.stdout.contains(#""kind":"tooLarge""#) && json.stdout.contains(bound), "\(json.stdout)")
        let view = try await StateHubBinary.run(["trace", "view", "--html", folder.appendingPathComponent("grow.html").path, trace.path])
        #expect(view.status == 2 && view.stderr.contains(bound), "\(view.stderr)")
    }

    /// A trace whose records each set a value 400 levels below the one before, taking the state
    /// past the timeline's depth cap (`JSONValue.maximumStateDepth`): `trace show` and `--json`
    /// show each step past the cap refused (`--json` naming the cap) with bounded output; never
    /// a crash (139).
    @Test func recordsNestingFourHundredLevelsDeeperEachAreRefusedPastTheCap() async throws {
        let folder = try Self.temporaryFolder("nest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = Self.recordLine
        let level = 400
        let nested = String(repeating: #"{"d":"#, count: level) + "1" + String(repeating: "}", count: level)
        var lines = [line(0, "sync_state", #"{"type":"sync_state","storeId":"s","payload":{"state":{"d":\#(nested)}}}"#)]
        // Record n sets a 400-level value at the leaf the one before made: 400·(n+1) levels down.
        for step in 1...4 {
            let path = Array(repeating: #""d""#, count: level * step + 1).joined(separator: ",")
            lines.append(line(step, "apply_mutation",
                              #"{"type":"apply_mutation","storeId":"s","payload":{"mutations":[{"ops":[{"op":"set","path":[\#(path)],"value":\#(nested)}]}]}}"#))
        }
        let trace = folder.appendingPathComponent("nest.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: trace, atomically: true, encoding: .utf8)
        let traceBytes = try Data(contentsOf: trace).count
        let cap = "nests deeper than \(JSONValue.maximumStateDepth) levels"

        let show = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(show.status == 0, "exit \(show.status) (139 or 11: a crash): \(show.stderr.suffix(400))")
        // Each step past the cap is shown refused (the text view cuts the long reason itself).
        #expect(show.stdout.components(separatedBy: "refused by the hub: ").count - 1 == 4, "\(show.stdout.suffix(800))")
        #expect(show.stdout.utf8.count + show.stderr.utf8.count < 64 * traceBytes, "\(show.stdout.utf8.count) bytes shown")

        let json = try await StateHubBinary.run(["trace", "show", "--json", trace.path])
        #expect(json.status == 0, "exit \(json.status) (139 or 11: a crash): \(json.stderr.suffix(400))")
        #expect(json.stdout.contains(cap), "\(json.stdout.suffix(800))")
        #expect(json.stdout.utf8.count < 64 * traceBytes, "\(json.stdout.utf8.count) bytes of JSON")
    }

    static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// One trace record of store `s`, web to native on the store channel, carrying `message`.
    static func recordLine(_ step: Int, _ type: String, _ message: String) -> String {
        let quoted = JSONValue.string(message).jsonText()
        return #"{"channel":"nativeBridge","direction":"web_to_native","engine":"e","message":\#(quoted),"size":1,"step":\#(step),"store":"s","time":\#(step),"type":"\#(type)"}"#
    }
}
