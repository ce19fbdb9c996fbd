import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import ServiceLifecycle
import StateHubServer

/// `statehub serve`'s application in this process, on a free loopback port, over SQLite.
struct ExampleServer: Sendable {
    let port: Int
    private let adminToken: String
    private let server: StateHubServer
    private let services: ServiceGroup
    private let running: Task<Void, any Error>

    static func start(folder: URL) async throws -> ExampleServer {
        let logger = Logger(label: "board-example", factory: { _ in SwiftLogNoOpLogHandler() })
        let storage = try await ServerStorage.open(.sqlite(directory: folder), logger: logger)
        let server = try StateHubServer(storage: storage, configuration: .init(), logger: logger)
        let adminToken = UUID().uuidString + UUID().uuidString
        try await server.installAdminToken(adminToken)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = server.makeApplication(router: server.makeRouter(), host: "127.0.0.1", port: 0, logger: logger,
                                         onRunning: { port in portSink.yield(port); portSink.finish() })
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await services.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ExampleError("the server did not start") }
        return ExampleServer(port: port, adminToken: adminToken, server: server, services: services, running: running)
    }

    /// A read-write token for `document`, through the admin API as an operator would get one.
    func issueToken(document: String) async throws -> String {
        guard let url = URL(string: "http://127.0.0.1:\(port)/admin/documents/\(document)/tokens") else { throw ExampleError("bad document name") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"access": "read-write", "label": "board example"}"#.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let token = object["token"] as? String else {
            throw ExampleError("no token in \(String(decoding: data, as: UTF8.self))")
        }
        return token
    }

    func stop() async {
        await services.triggerGracefulShutdown()
        _ = try? await running.value
        await server.storage.close()
    }
}
