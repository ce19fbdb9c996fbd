import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Logging
import ServiceLifecycle
@testable import StateHubServer
import Testing

/// A running `StateHubServer` application (the one `statehub serve` runs) on 127.0.0.1, any
/// port, over SQLite in a folder or a PostgreSQL URL; stopped by graceful shutdown.
final class LiveSyncServer: Sendable {
    static let adminToken = "sync-test-admin-token-0123456789"
    let port: Int
    let server: StateHubServer
    private let services: ServiceGroup
    private let running: Task<Void, any Error>

    /// `port` 0 picks a free one; a restart passes the port it had, so clients find it again.
    static func start(_ location: StorageLocation, configuration: ServerConfiguration = .init(), port: Int = 0) async throws -> LiveSyncServer {
        let logger = Logger(label: "sync-test")
        let storage = try await ServerStorage.open(location, logger: logger)
        let server = try StateHubServer(storage: storage, configuration: configuration, logger: logger)
        try await server.installAdminToken(adminToken)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication(router: server.makeRouter(), host: "127.0.0.1", port: port, logger: logger,
                                         onRunning: { port in portSink.yield(port); portSink.finish() })
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw SyncTestError("the server did not start") }
        return LiveSyncServer(port: port, server: server, services: services, running: running)
    }

    /// Starts a server on PostgreSQL whose listener calls `hook` at each step (``SyncListenerState``'s
    /// test seam) and returns once the port is bound, before the server is ready; `ready` yields the
    /// port when `onRunning` comes.
    static func start(_ location: StorageLocation, listenerHook hook: @escaping @Sendable (SyncListenerStep) async -> Void)
        async throws -> (server: LiveSyncServer, ready: AsyncStream<Int>) {
        let logger = Logger(label: "sync-test")
        let storage = try await ServerStorage.open(location, logger: logger)
        let server = try StateHubServer(storage: storage, configuration: .init(), logger: logger)
        try await server.installAdminToken(adminToken)
        server.sync.listener.setTestHook(hook)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let (ready, readySink) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication(router: server.makeRouter(), host: "127.0.0.1", port: 0, logger: logger,
                                         onBound: { port in portSink.yield(port); portSink.finish() },
                                         onRunning: { port in readySink.yield(port); readySink.finish() })
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw SyncTestError("the server did not start") }
        return (LiveSyncServer(port: port, server: server, services: services, running: running), ready)
    }

    private init(port: Int, server: StateHubServer, services: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.server = server
        self.services = services
        self.running = running
    }

    func stop() async {
        await services.triggerGracefulShutdown()
        _ = try? await running.value
        // A compaction still running would meet a closed storage (as serve does, docs/sync.md).
        await server.sync.waitUntilStored()
        await server.storage.close()
    }

    /// An HTTP request to this server; returns the status and the body.
    func request(_ method: String, _ path: String, token: String? = adminToken, json: String? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Issues a document token through the admin API.
    func issueToken(document: String, access: String) async throws -> String {
        let (status, data) = try await request("POST", "/admin/documents/\(document)/tokens", json: #"{"access": "\#(access)", "label": "test"}"#)
        guard status == 201, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let token = object["token"] as? String else {
            throw SyncTestError("issuing a token: \(status) \(String(decoding: data, as: UTF8.self))")
        }
        return token
    }
}

/// A fresh SQLite folder, removed by the caller.
func temporaryDataFolder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("statehub-sync-\(UUID().uuidString)")
}
