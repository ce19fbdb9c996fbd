import Foundation
import SharedDocument
import SharedDocumentSync
import StateHubTestSupport
import Testing

/// The native client (docs/sync.md §3) against our server and the `y-websocket` server, over
/// real WebSockets on loopback, with its document store on disk.
@Suite(.tags(.integration), .serialized) struct SyncedDocumentTests {
    @Test func twoNativeClientsConvergeAndTheirEditsLeaveTheDiskQueue() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = try await LiveSyncServer.start(.sqlite(directory: folder))
        let token = try await live.issueToken(document: "board", access: "read-write")
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:\(live.port)/sync", token: token)
        let (first, firstStore) = try await openClient("board", configuration, folder: folder, file: "a.sqlite")
        let (second, _) = try await openClient("board", configuration, folder: folder, file: "b.sqlite")

        try await first.transact { try $0.map("m").set("from-first", .string("1")) }
        try await second.transact { try $0.map("m").set("from-second", .string("2")) }
        try await waitForValue(first, key: "from-second", "2")
        try await waitForValue(second, key: "from-first", "1")
        let status = try await waitForStatus(first) { $0.state == .synced && $0.pendingUpdates == 0 }
        #expect(status.lastProblem == nil)
        #expect(try firstStore.pendingCount(document: "board") == 0)

        await first.close()
        await second.close()
        await live.stop()
    }

    @Test func editsMadeOfflineSurviveARestartOfTheAppAndReachTheServer() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A port nobody listens on: the client stays offline and keeps its edits on disk.
        let deadPort = try await refusingPort(folder: folder)
        let storePath = folder.appendingPathComponent("app.sqlite").path
        let offline = try await SyncedDocument.open("notes", store: DocumentStore(path: storePath),
                                                    configuration: SyncConfiguration(server: "ws://127.0.0.1:\(deadPort)/sync", maximumRetryDelay: .milliseconds(200)))
        for index in 0..<3 { try await offline.transact { try $0.map("m").set("k\(index)", .string("v\(index)")) } }
        // Each edit is on disk as soon as `transact` returned, before any close (what a killed app leaves).
        #expect(try DocumentStore(path: storePath).pendingCount(document: "notes") == 3)
        let offlineStatus = try await waitForStatus(offline) { $0.state == .offline && $0.lastProblem != nil }
        #expect(offlineStatus.pendingUpdates == 3)
        let clientID = await offline.clientID
        await offline.close()

        let live = try await LiveSyncServer.start(.sqlite(directory: folder.appendingPathComponent("server")))
        let token = try await live.issueToken(document: "notes", access: "read-write")
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:\(live.port)/sync", token: token)
        let restarted = try await SyncedDocument.open("notes", store: DocumentStore(path: storePath), configuration: configuration)
        #expect(await restarted.clientID == clientID, "the same client continues its clock after a restart")
        #expect(try await restarted.transact { try $0.map("m").count } == 3)
        _ = try await waitForStatus(restarted) { $0.state == .synced && $0.pendingUpdates == 0 }
        #expect(try DocumentStore(path: storePath).pendingCount(document: "notes") == 0)

        let (reader, _) = try await openClient("notes", configuration, folder: folder, file: "reader.sqlite")
        try await waitForValue(reader, key: "k2", "v2")
        #expect(try await reader.transact { try $0.map("m").count } == 3)
        await restarted.close()
        await reader.close()
        await live.stop()
    }

    @Test func tenThousandEditsMadeOfflineAllReachTheServer() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let storePath = folder.appendingPathComponent("app.sqlite").path
        let store = try DocumentStore(path: storePath)
        // No server yet: a configuration whose port refuses connections.
        let deadPort = try await refusingPort(folder: folder)
        let offline = try await SyncedDocument.open("list", store: store, configuration: SyncConfiguration(server: "ws://127.0.0.1:\(deadPort)/sync"))
        for index in 0..<10_000 { try await offline.transact { try $0.array("items").push([.int(Int64(index))]) } }
        #expect(try store.pendingCount(document: "list") == 10_000)
        await offline.close()

        let live = try await LiveSyncServer.start(.sqlite(directory: folder.appendingPathComponent("server")))
        let token = try await live.issueToken(document: "list", access: "read-write")
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:\(live.port)/sync", token: token)
        let online = try await SyncedDocument.open("list", store: store, configuration: configuration)
        _ = try await waitForStatus(online) { $0.state == .synced && $0.pendingUpdates == 0 }
        #expect(try store.pendingCount(document: "list") == 0)

        let (reader, _) = try await openClient("list", configuration, folder: folder, file: "reader.sqlite")
        _ = try await waitForStatus(reader) { $0.state == .synced }
        let items = try await reader.transact { document -> [Int64] in
            guard case .array(let values) = try document.array("items").toJSON() else { return [] }
            return values.map { value -> Int64 in
                guard case .int(let number) = value else { return -1 }
                return number
            }
        }
        #expect(items == Array(0..<10_000))
        await online.close()
        await reader.close()
        await live.stop()
    }

    @Test func aLostServerIsReconnectedToAndTheEditsMadeMeanwhileArrive() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let serverFolder = folder.appendingPathComponent("server")
        var live = try await LiveSyncServer.start(.sqlite(directory: serverFolder))
        let port = live.port
        let token = try await live.issueToken(document: "doc", access: "read-write")
        let configuration = SyncConfiguration(server: "ws://127.0.0.1:\(port)/sync", token: token, maximumRetryDelay: .milliseconds(300))
        let (client, store) = try await openClient("doc", configuration, folder: folder, file: "app.sqlite")
        try await client.transact { try $0.map("m").set("before", .string("1")) }
        _ = try await waitForStatus(client) { $0.state == .synced && $0.pendingUpdates == 0 }

        await live.stop()
        _ = try await waitForStatus(client) { $0.state == .offline }
        try await client.transact { try $0.map("m").set("while-down", .string("2")) }
        #expect(try store.pendingCount(document: "doc") == 1)

        live = try await LiveSyncServer.start(.sqlite(directory: serverFolder), port: port)
        _ = try await waitForStatus(client) { $0.state == .synced && $0.pendingUpdates == 0 }
        let (reader, _) = try await openClient("doc", configuration, folder: folder, file: "reader.sqlite")
        try await waitForValue(reader, key: "while-down", "2")
        try await waitForValue(reader, key: "before", "1")
        await client.close()
        await reader.close()
        await live.stop()
    }

    @Test func againstTheYWebsocketServerPendingEditsAreDroppedOnceTheServerShowsThem() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await YWebsocketServer.start()
        defer { server.stop() }
        // y-websocket has no acknowledgements: the client asks for the server's state instead.
        let configuration = SyncConfiguration(server: server.url, acknowledgements: false)
        let (client, store) = try await openClient("room", configuration, folder: folder, file: "app.sqlite")
        let peer = try YjsPeer(name: "yjs", server: server.url, document: "room", token: "unused")
        defer { peer.stop() }
        try await client.transact { try $0.map("m").set("from-swift", .string("s")) }
        try await peer.waitFor("from-swift", "s")
        try await peer.set("from-yjs", "y")
        try await waitForValue(client, key: "from-yjs", "y")
        _ = try await waitForStatus(client) { $0.state == .synced && $0.pendingUpdates == 0 }
        #expect(try store.pendingCount(document: "room") == 0)

        // A deletion carries no clock: it leaves the queue only once the server's delete set has it.
        try await client.transact { try $0.map("m").delete("from-yjs") }
        _ = try await waitForStatus(client) { $0.pendingUpdates == 0 }
        let seen = try await peer.dump()
        #expect(seen["from-yjs"] == nil && seen["from-swift"] == "s")
        await client.close()
    }

    @Test func namesAndURLsTheServerWouldRefuseAreTypedErrors() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try DocumentStore(path: folder.appendingPathComponent("app.sqlite").path)
        await #expect(throws: SyncClientError(.invalidName("a/b"))) {
            _ = try await SyncedDocument.open("a/b", store: store, configuration: SyncConfiguration(server: "ws://127.0.0.1:1/sync"))
        }
        await #expect(throws: SyncClientError(.invalidServer("http://x/sync does not start with ws:// or wss://"))) {
            _ = try await SyncedDocument.open("ok", store: store, configuration: SyncConfiguration(server: "http://x/sync"))
        }
        #expect(throws: SyncClientError.self) { _ = try DocumentStore(path: folder.appendingPathComponent("missing/dir/app.sqlite").path) }
    }
}

// MARK: - Helpers

private func openClient(_ name: String, _ configuration: SyncConfiguration, folder: URL, file: String) async throws -> (SyncedDocument, DocumentStore) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try DocumentStore(path: folder.appendingPathComponent(file).path)
    return (try await SyncedDocument.open(name, store: store, configuration: configuration), store)
}

/// A loopback port a server just left, so connecting to it is refused: a client stays offline.
private func refusingPort(folder: URL) async throws -> Int {
    let unused = try await LiveSyncServer.start(.sqlite(directory: folder.appendingPathComponent("unused")))
    await unused.stop()
    return unused.port
}

/// The first status that `matches`, from the document's status updates; past
/// ``eventWaitDeadline`` it records an issue and throws.
@discardableResult
func waitForStatus(_ document: SyncedDocument, sourceLocation: SourceLocation = #_sourceLocation,
                   _ matches: @escaping @Sendable (SyncStatus) -> Bool) async throws -> SyncStatus {
    let updates = await document.statusUpdates()
    guard let status = await waitFor("a status of \(document.name) that matches", in: updates, sourceLocation: sourceLocation, where: matches) else {
        throw SyncTestError("\(document.name): status never matched; last: \(await document.currentStatus)")
    }
    return status
}

/// Waits until the document's map `m` holds `key` = `value`, checked again at each change.
private func waitForValue(_ document: SyncedDocument, key: String, _ value: String,
                          sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let changes = await document.changes()
    let held = await waitUntil("\(document.name) to hold \(key) = \(value)", notifiedBy: changes,
                               observed: { "status \(await document.currentStatus)" }, sourceLocation: sourceLocation) {
        (try? await document.transact({ try $0.map("m").get(key) })) == .string(value)
    }
    if !held { throw SyncTestError("\(document.name) never saw \(key) = \(value)") }
}

/// Debian's `y-websocket` server (`node /usr/share/nodejs/y-websocket/bin/server.js`) on a
/// loopback port; documents in memory. Fails (never skips) when node or the package is missing.
final class YWebsocketServer: Sendable {
    let url: String
    private let process: Process

    static func start() async throws -> YWebsocketServer {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["node", "/usr/share/nodejs/y-websocket/bin/server.js"]
            var environment = ProcessInfo.processInfo.environment
            environment["NODE_PATH"] = "/usr/share/nodejs"
            environment["HOST"] = "127.0.0.1"
            environment["PORT"] = String(port)
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            // It prints one line once listening, or fails (a taken port) and exits.
            let line = String(decoding: await output.fileHandleForReading.availableDataOffThePool(), as: UTF8.self)
            if process.isRunning, line.contains("running") {
                return YWebsocketServer(url: "ws://127.0.0.1:\(port)/sync", process: process)
            }
            process.terminate()
            await process.exitedOffThePool()
        }
        throw SyncTestError("the y-websocket server did not start (node and node-y-websocket installed? scripts/ensure-deps.sh)")
    }

    private init(url: String, process: Process) {
        self.url = url
        self.process = process
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
