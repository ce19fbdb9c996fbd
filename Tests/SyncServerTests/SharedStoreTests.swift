import Foundation
import SharedDocument
import SharedDocumentSync
import SharedStores
import StateHub
import StateHubPage
import Testing
import Trace

/// A Pinia store in a real engine, bound to a shared document (docs/sync.md §4), syncing through
/// our server with a real Yjs client (node-yjs's WebsocketProvider) editing the same map.
@Suite(.serialized) struct SharedStoreTests {
    static let board = HostedPage.Bundle(path: "board.js", source: """
        const useBoard = defineStore('board', {
          state: () => ({ title: 'Board' }),
          actions: {
            // Keys added after the store was created live in $state only (as in Pinia).
            put(key, value) { this.$patch({ [key]: value }) },
            read(key) { return this.$state[key] ?? null },
          },
        });
        useBoard();
        """)

    @Test func storeAndYjsClientFollowEachOtherAndMergeEditsMadeOffline() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let serverFolder = folder.appendingPathComponent("server")
        var live = try await LiveSyncServer.start(.sqlite(directory: serverFolder))
        let port = live.port
        let token = try await live.issueToken(document: "board-alpha", access: "read-write")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let documents = try DocumentStore(path: folder.appendingPathComponent("device-a.sqlite").path)
        let document = try await SyncedDocument.open("board-alpha", store: documents,
            configuration: SyncConfiguration(server: "ws://127.0.0.1:\(port)/sync", token: token, maximumRetryDelay: .milliseconds(300)))
        let recorder = TraceRecorder(capacity: 10_000)
        let page = try await HostedPage.make(.init(bundles: [Self.board], trace: recorder))
        // Root "m": the map the Yjs peer script edits.
        let binding = try await SharedStore.bind(hub: page.hub, store: "board", document: document, root: "m")

        let peer = try YjsPeer(name: "web", port: port, document: "board-alpha", token: token)
        defer { peer.stop() }
        try await peer.waitFor("title", "Board")                    // the store's state went into the document

        try await peer.set("fromWeb", "w")                          // a remote edit enters the store
        try await waitForStore(page, key: "fromWeb", "w")
        _ = try await page.hub.dispatch(store: "board", action: "put", args: ["fromPage", "p"])
        try await peer.waitFor("fromPage", "p")                     // a store mutation reaches the web client

        // Device A goes offline (the server stops); both sides edit different keys.
        await live.stop()
        _ = try await waitForStatusOf(document) { $0.state == .offline }
        _ = try await page.hub.dispatch(store: "board", action: "put", args: ["offlineA", "a"])
        try await peer.set("offlineWeb", "b")
        live = try await LiveSyncServer.start(.sqlite(directory: serverFolder), port: port)
        try await peer.waitFor("offlineA", "a")
        try await waitForStore(page, key: "offlineWeb", "b")

        // Everything converged: the store, its mirror, the document and the web client agree.
        let seen = try await peer.dump()
        #expect(seen == ["title": "Board", "fromWeb": "w", "fromPage": "p", "offlineA": "a", "offlineWeb": "b"])
        let mirror = page.hub.state(of: "board")
        for (key, value) in seen { #expect(mirror?[key] == .string(value), "mirror \(key)") }
        #expect(binding.problems.isEmpty, "\(binding.problems)")
        // No echo: the page was sent exactly the two remote edits, never its own writes back.
        let forwarded = recorder.records.filter { $0.direction == .nativeToWeb && $0.type == "apply_mutation" }
        #expect(forwarded.count == 2, "\(forwarded.map(\.message))")
        binding.unbind()
        await document.close()
        await page.close()
        await live.stop()
    }
}

private func waitForStore(_ page: HostedPage, key: String, _ value: String) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if try await page.hub.dispatch(store: "board", action: "read", args: [.string(key)]) == .string(value) { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw SyncTestError("the store never had \(key) = \(value); mirror \(String(describing: page.hub.state(of: "board")))")
}

private func waitForStatusOf(_ document: SyncedDocument, _ matches: @Sendable (SyncStatus) -> Bool) async throws -> SyncStatus {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        let status = await document.currentStatus
        if matches(status) { return status }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw SyncTestError("status never matched; last \(await document.currentStatus)")
}
