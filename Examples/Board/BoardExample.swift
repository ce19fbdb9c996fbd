// The board of docs/sync.md §4, end to end: `swift run board-example`.
//
// Starts `statehub serve`'s server in this process (SQLite in a temporary folder), device A (a
// page in our engine hosting js/examples/board.js, its store bound to the shared document
// "board-alpha"), and a web client (node-yjs, Examples/Board/web-client.cjs). Device A goes
// offline and is edited, the web client adds a task meanwhile, A comes back, everything
// converges. Needs `node` with Debian's node-yjs, node-y-websocket and node-ws
// (scripts/ensure-deps.sh installs them).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSSources
import Logging
import ServiceLifecycle
import SharedDocumentSync
import SharedStores
import StateHubJSON
import StateHubPage
import StateHubServer

@main
struct BoardExample {
    static func main() async {
        do {
            try await run()
        } catch {
            print("board example failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let server = try await ExampleServer.start(folder: folder.appendingPathComponent("server"))
        let syncURL = "ws://127.0.0.1:\(server.port)/sync"
        let token = try await server.issueToken(document: "board-alpha")
        print("server     statehub on 127.0.0.1:\(server.port), document board-alpha")

        // Device A: the native shell.
        let documents = try DocumentStore(path: folder.appendingPathComponent("device-a.sqlite").path)
        let document = try await SyncedDocument.open("board-alpha", store: documents,
                                                     configuration: SyncConfiguration(server: syncURL, token: token))
        guard let source = JSSources.file("examples/board.js") else { throw ExampleError("js/examples/board.js is not embedded") }
        let page = try await HostedPage.make(.init(bundles: [.init(path: "board.js", source: source)]))
        let binding = try await SharedStore.bind(hub: page.hub, store: "board", document: document)
        _ = try await page.hub.dispatch(store: "board", action: "addTask", args: ["t1", "Write the docs"])
        try await waitUntil { await document.currentStatus == SyncStatus(state: .synced, pendingUpdates: 0) }
        try await show("device A  ", page, document)

        // The web client: real Yjs in node.
        let web = try WebClient(server: syncURL, document: "board-alpha", token: token)
        defer { web.stop() }
        try await web.command(["op": "waitForTasks", "count": 1], answer: "ok")
        print("web        connected, sees 1 task")

        await document.pause()
        _ = try await page.hub.dispatch(store: "board", action: "addTask", args: ["t2", "Ship the board"])
        _ = try await page.hub.dispatch(store: "board", action: "move", args: ["t1", "done"])
        try await show("device A   offline: added t2, moved t1 to done;", page, document)
        try await web.command(["op": "addTask", "id": "t3", "title": "Review"], answer: "ok")
        print("web        added t3 while device A was offline")

        await document.resume()
        try await waitUntil { await document.currentStatus == SyncStatus(state: .synced, pendingUpdates: 0) }
        try await web.command(["op": "waitForTasks", "count": 3], answer: "ok")
        try await waitUntil { (try? await page.hub.dispatch(store: "board", action: "count")) == 3 }
        try await show("device A   back online:", page, document)

        let native = try await page.hub.dispatch(store: "board", action: "snapshot")
        let dump = try await web.command(["op": "dump"], answer: "dump")
        let webBoard = try JSONValue(parsing: dump).objectValue?["board"] ?? .null
        print("web        \(webBoard.jsonText())")
        print("device A   \(native.jsonText())")
        // Key order is each side's own (JavaScript keeps insertion order): compare sorted.
        let converged = try canonical(webBoard) == canonical(native)
        print(converged ? "converged  yes" : "converged  NO")
        binding.unbind()
        await document.close()
        await page.close()
        await server.stop()
        if !converged { exit(1) }
    }

    static func show(_ label: String, _ page: HostedPage, _ document: SyncedDocument) async throws {
        let count = try await page.hub.dispatch(store: "board", action: "count")
        let status = await document.currentStatus
        print("\(label) tasks: \(count.jsonText()), sync: \(status.state.rawValue), pending updates: \(status.pendingUpdates)")
    }

    static func canonical(_ value: JSONValue) throws -> Data {
        try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(value.jsonText().utf8)), options: [.sortedKeys])
    }

    /// Polls `condition` for up to 30 s.
    static func waitUntil(_ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ExampleError("gave up waiting after 30 s")
    }
}

struct ExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
