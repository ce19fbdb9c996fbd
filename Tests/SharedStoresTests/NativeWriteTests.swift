import JSEngine
import StateHub
import StateHubPage
import Testing

/// `GlobalStateHub.write(store:ops:type:)`: native writes reach the mirror and the page; a
/// refused write changes neither.
@Suite(.tags(.engine)) struct NativeWriteTests {
    static let notes = HostedPage.Bundle(path: "notes.js", source: """
        const useNotes = defineStore('notes', {
          state: () => ({ items: ['a'], meta: { count: 1 } }),
          actions: { snapshot() { return JSON.parse(JSON.stringify(this.$state)) } },
        });
        useNotes();
        """)

    @Test func aNativeWriteReachesTheMirrorAndThePage() async throws {
        let page = try await HostedPage.make(.init(bundles: [Self.notes]))
        try page.hub.write(store: "notes", ops: [
            .splice(path: [.key("items")], index: 1, deleteCount: 0, items: ["b"]),
            .set(path: [.key("meta"), .key("count")], value: 2),
        ])
        let expected: JSONValue = ["items": ["a", "b"], "meta": ["count": 2]]
        #expect(page.hub.state(of: "notes") == expected)
        #expect(try await page.hub.dispatch(store: "notes", action: "snapshot") == expected)
        await page.close()
    }

    @Test func aRefusedWriteChangesNothing() async throws {
        let page = try await HostedPage.make(.init(bundles: [Self.notes]))
        let before = page.hub.state(of: "notes")
        #expect(throws: StateHubError.self) {
            // The first op applies, the second does not: the message is refused whole.
            try page.hub.write(store: "notes", ops: [
                .set(path: [.key("meta"), .key("count")], value: 5),
                .set(path: [.key("missing"), .key("deep")], value: 1),
            ])
        }
        #expect(page.hub.state(of: "notes") == before)
        #expect(try await page.hub.dispatch(store: "notes", action: "snapshot") == before)
        #expect(throws: StateHubError.unknownStore("nope")) { try page.hub.write(store: "nope", ops: [.delete(path: [.key("x")])]) }
        await page.close()
    }
}
