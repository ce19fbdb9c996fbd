import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import StateHubServer
import Testing

/// A server over a fresh database for one test: SQLite in a temporary folder, or a new
/// PostgreSQL database on the server `scripts/with-postgres.sh` started.
struct TestServer {
    static let token = "test-admin-token-0123456789"
    let server: StateHubServer
    let directory: URL?

    static func sqlite(configuration: ServerConfiguration = .init()) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-server-\(UUID().uuidString)")
        let storage = try await ServerStorage.open(.sqlite(directory: directory), logger: Logger(label: "test"))
        let server = try StateHubServer(storage: storage, configuration: configuration)
        try await server.installAdminToken(token)
        return TestServer(server: server, directory: directory)
    }

    static func postgres(url: String, configuration: ServerConfiguration = .init()) async throws -> TestServer {
        let storage = try await ServerStorage.open(.postgres(url: url), logger: Logger(label: "test"))
        let server = try StateHubServer(storage: storage, configuration: configuration)
        try await server.installAdminToken(token)
        return TestServer(server: server, directory: nil)
    }

    var application: some ApplicationProtocol { Application(router: server.makeRouter()) }

    /// Runs `body` through `setup` (`.router` or `.live`), then closes the server whether or not it threw.
    func test(_ setup: TestingSetup, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        do {
            try await application.test(setup, body)
        } catch {
            await close()
            throw error
        }
        await close()
    }

    func close() async {
        await server.sync.waitUntilStored()
        await server.storage.close()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

extension TestClientProtocol {
    /// A request with the admin token and a JSON body.
    @discardableResult
    func admin(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String = TestServer.token) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// Uploads `version` of `app` whose bundle sets `globalThis.loaded` to the version.
    func upload(_ app: String, _ version: String, minNative: String = "1.0.0", stylesheet: String? = nil) async throws {
        var body: [String: String] = ["bundle": "globalThis.loaded = '\(app)@\(version)';", "minNativeVersion": minNative]
        body["stylesheet"] = stylesheet
        let json = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        let response = try await admin(.put, "/admin/apps/\(app)/versions/\(version)", json: json)
        #expect(response.status == .created, "upload \(app) \(version): \(String(buffer: response.body))")
    }

    /// The manifest as a dictionary.
    func manifest(_ app: String, user: String, native: String? = nil) async throws -> [String: Any] {
        var uri = "/apps/\(app)/manifest?user=\(user)"
        if let native { uri += "&nativeVersion=\(native)" }
        let response = try await get(uri)
        #expect(response.status == .ok, "manifest: \(String(buffer: response.body))")
        return try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any] ?? [:]
    }
}

enum Fixtures {
    /// A valid theme of `version`.
    static func theme(_ version: String, primary: String = "#007AFF") -> String {
        """
        {"metadata": {"version": "\(version)", "description": "Test"},
         "colors": {"primary": "\(primary)", "background": "#FFFFFF"},
         "fonts": {"body": {"name": "Helvetica", "size": 17}},
         "components": {"button": {"backgroundColor": "primary", "textColor": "background", "cornerRadius": 8, "font": "body"}}}
        """
    }

    /// A user whose bucket lies in `range` for `app`.
    static func user(in range: Range<Int>, app: String) -> String {
        for index in 0..<100_000 where range.contains(Bucket.of(app: app, user: "user-\(index)")) { return "user-\(index)" }
        return "none"
    }
}
