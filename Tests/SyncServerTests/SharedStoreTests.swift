import Foundation
import SharedDocument
import SharedDocumentSync
import SharedStores
import StateHub
import StateHubPage
import StateHubTestSupport
import Testing
import Trace

/// A Pinia store in a real engine, bound to a shared document (docs/sync.md §4), syncing through
/// our server with a real Yjs client (node-yjs's WebsocketProvider) editing the same map.
@Suite(.tags(.integration), .serialized) struct SharedStoreTests {
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
        _ = try await waitForStatus(document) { $0.state == .offline }
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

private func waitForStore(_ page: HostedPage, key: String, _ value: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let hub = page.hub
    let held = await waitUntil("the store to hold \(key) = \(value)", notifiedBy: hub.changes(of: "board"),
                               observed: { "mirror \(String(describing: hub.state(of: "board")))" }, sourceLocation: sourceLocation) {
        (try? await hub.dispatch(store: "board", action: "read", args: [.string(key)])) == .string(value)
    }
    if !held { throw SyncTestError("the store never had \(key) = \(value)") }
}

/// The board. Device A (a store in our engine, bound to a document) goes
/// offline and is edited; a Yjs web client edits the same board meanwhile; A comes back and
/// everything converges. The shell's view: the task count and the sync status.
@Suite(.tags(.integration), .serialized) struct BoardTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static var example: URL { repository.appendingPathComponent("js/examples/board.js") }
    /// The example's web client (Examples/Board), so the test runs what the README runs.
    static var webClient: URL { repository.appendingPathComponent("Examples/Board/web-client.cjs") }

    @Test func theBoardEditedOfflineOnADeviceAndOnTheWebConverges() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder.appendingPathComponent("server")))
        let token = try await live.issueToken(document: "board-alpha", access: "read-write")
        let documents = try DocumentStore(path: folder.appendingPathComponent("device-a.sqlite").path)
        let document = try await SyncedDocument.open("board-alpha", store: documents,
            configuration: SyncConfiguration(server: "ws://127.0.0.1:\(live.port)/sync", token: token, maximumRetryDelay: .milliseconds(300)))
        let source = try String(contentsOf: Self.example, encoding: .utf8)
        let page = try await HostedPage.make(.init(bundles: [.init(path: "board.js", source: source)]))
        let binding = try await SharedStore.bind(hub: page.hub, store: "board", document: document)
        _ = try await page.hub.dispatch(store: "board", action: "addTask", args: ["t1", "Write the docs"])

        let web = try YjsPeer(name: "web", server: "ws://127.0.0.1:\(live.port)/sync", document: "board-alpha", token: token, script: Self.webClient)
        defer { web.stop() }
        try await webWaits(web, forTasks: 1)

        // A goes offline and keeps working: a new task, and t1 moves to done.
        await document.pause()
        #expect(await document.currentStatus.state == .offline)
        _ = try await page.hub.dispatch(store: "board", action: "addTask", args: ["t2", "Ship the board"])
        _ = try await page.hub.dispatch(store: "board", action: "move", args: ["t1", "done"])
        #expect(await document.currentStatus.pendingUpdates > 0, "the offline edits wait on disk")
        // Meanwhile on the web: another task.
        try web.send(["op": "addTask", "id": "t3", "title": "Review"])
        guard await web.next("ok", where: { $0["op"]?.string == "addTask" }) != nil else { throw web.failure("addTask") }

        // A comes back: everything converges.
        let hub = page.hub
        let boardChanges = hub.changes(of: "board")
        await document.resume()
        try await webWaits(web, forTasks: 3)
        await waitUntil("the board to count 3 tasks", notifiedBy: boardChanges,
                        observed: { "mirror \(String(describing: hub.state(of: "board")))" }) {
            (try? await hub.dispatch(store: "board", action: "count")) == 3
        }
        _ = try await waitForStatus(document) { $0.state == .synced && $0.pendingUpdates == 0 }
        // The shell's view.
        #expect(try await page.hub.dispatch(store: "board", action: "count") == 3)
        #expect(await document.currentStatus == SyncStatus(state: .synced, pendingUpdates: 0))

        let native = try await page.hub.dispatch(store: "board", action: "snapshot")
        try web.send(["op": "dump"])
        guard let dump = await web.next("dump"), let webBoard = dump["board"]?.value,
              let webJSON = try? JSONSerialization.data(withJSONObject: webBoard, options: [.sortedKeys]),
              let nativeJSON = try? JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(native.jsonText().utf8)), options: [.sortedKeys]) else {
            throw web.failure("dump")
        }
        #expect(String(decoding: webJSON, as: UTF8.self) == String(decoding: nativeJSON, as: UTF8.self))
        #expect(native["tasks"]?["t1"]?["column"] == "done")
        #expect(native["order"]?["done"] == ["t1"])
        if case .array(let todo)? = native["order"]?["todo"] { #expect(Set(todo.compactMap(\.stringValue)) == ["t2", "t3"]) } else { Issue.record("no todo column: \(native)") }
        #expect(binding.problems.isEmpty, "\(binding.problems)")
        binding.unbind()
        await document.close()
        await page.close()
        await live.stop()
    }

    private func webWaits(_ web: YjsPeer, forTasks count: Int) async throws {
        try web.send(["op": "waitForTasks", "count": count])
        guard await web.next("ok", where: { $0["op"]?.string == "waitForTasks" }) != nil else { throw web.failure("waiting for \(count) tasks") }
    }
}
