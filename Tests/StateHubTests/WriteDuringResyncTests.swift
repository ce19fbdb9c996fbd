import StateHub
import StateHubTesting
import Testing

/// Writes a page makes while the hub waits for its resync answer are dropped, but a page alone
/// with the store answers with its whole state, which becomes the mirror: those writes are in
/// it, so the dispatch they belong to succeeds rather than failing with "its writes were
/// discarded" although its writes were kept. A `FinalizationRegistry` callback stopped between
/// dispatches is one way in: every dispatch that runs while that stop's resync is under way.
@Suite("Writes during a resync of a page alone with its store", .tags(.unit))
struct WriteDuringResyncTests {
    @Test func aDispatchWhoseWritesTheResyncCarriesSucceeds() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "alone")
        try await hub.attach(page)
        page.announce(store: "s", state: ["n": 0])
        let dispatch = Task { try await hub.dispatch(store: "s", action: "inc") }
        let sent = await page.nextSent()
        let id = try #require(sent.messageId)
        hub.requestSync(store: "s")
        _ = await page.nextSent()   // the request_sync

        // The action's write, made before the page read the request, then its result.
        let mutation: JSONValue = ["type": "direct", "dispatch": .string(id), "ops": [["op": "set", "path": ["n"], "value": 1]]]
        page.postStoreMessage(store: "s", type: "apply_mutation", payload: ["mutations": [mutation]])
        page.answer(sent, value: 1)
        #expect(try await dispatch.value == 1)

        page.postStoreMessage(store: "s", type: "sync_state", payload: ["state": ["n": 1], "reason": "resync"])
        #expect(await mirror(of: hub, "s") { $0 == ["n": 1] })
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }
}
