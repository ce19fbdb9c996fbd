import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StateHubTestSupport
import Testing

/// `statehub serve` and `statehub run --server` end to end, as the issue's "done when" says:
/// an empty data folder, a micro-app and a theme published through the admin API, users inside
/// and outside the rollout, a theme 304, and the cached last good version once the server stops.
@Suite("statehub serve", .tags(.integration))
struct ServeCommandTests {
    /// A `statehub serve` process on a free port over an empty data folder.
    final class ServeProcess: @unchecked Sendable {
        let process: Process
        let folder: URL
        let base: URL
        let token = "serve-test-\(UUID().uuidString)"
        private let output: Pipe

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let tokenFile = folder.appendingPathComponent("token")
            try (token + "\n").write(to: tokenFile, atomically: true, encoding: .utf8)
            let launch = try ServeLaunch.start(["--data", folder.appendingPathComponent("data").path, "--port", "0",
                                                "--admin-token-file", tokenFile.path, "--log-level", "debug"])
            (process, base, output) = (launch.process, launch.base, launch.output)
        }

        /// Stops the server (SIGTERM, graceful) and returns everything it printed.
        func stop() -> String {
            process.terminate()
            process.waitUntilExit()
            return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }

        func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:], admin: Bool = false)
        async throws -> (status: Int, headers: [String: String], body: String) {
            guard let url = URL(string: path, relativeTo: base) else { throw ServeFailed(output: "bad path \(path)") }
            var request = URLRequest(url: url)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if admin { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as? HTTPURLResponse
            var fields: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            return (http?.statusCode ?? 0, fields, String(decoding: data, as: UTF8.self))
        }
    }

    struct ServeFailed: Error { var output: String }

    static func bundle(_ version: String) -> String {
        """
        var useRelease = defineStore('release', { state: function () { return { version: '\(version)' }; } });
        if (!getActivePinia()) setActivePinia(createPinia());
        useRelease();
        """
    }

    static func bucket(_ user: String) -> Int {
        // docs/server.md: first 4 bytes of SHA-256("cart:" + user), big-endian, mod 10 000 —
        // computed here by Python's hashlib so the test does not share the server's code.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import hashlib,sys; print(int.from_bytes(hashlib.sha256(('cart:'+sys.argv[1]).encode()).digest()[:4],'big')%10000)", user]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        process.waitUntilExit()
        return Int(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func publishRolloutThemeAndOfflineFallback() async throws {
        let server = try ServeProcess()
        let cache = server.folder.appendingPathComponent("apps")
        var stopped = false
        defer {
            if !stopped { _ = server.stop() }
            try? FileManager.default.removeItem(at: server.folder)
        }
        for version in ["1.0.0", "1.1.0"] {
            let body = String(decoding: try JSONEncoder().encode(["bundle": Self.bundle(version), "minNativeVersion": "1.0.0"]), as: UTF8.self)
            #expect(try await server.request("PUT", "/admin/apps/cart/versions/\(version)", body: body, admin: true).status == 201)
        }
        #expect(try await server.request("PUT", "/admin/apps/cart/versions/1.2.0", body: #"{"bundle":"x"}"#).status == 401)
        #expect(try await server.request("PUT", "/admin/apps/cart/release",
                                         body: #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":50}]}"#, admin: true).status == 200)
        let theme = try String(contentsOf: StateHubBinary.packageRoot.appendingPathComponent("examples/themes/standard.json"), encoding: .utf8)
        #expect(try await server.request("PUT", "/admin/themes/1.1.0", body: theme, admin: true).status == 201)
        #expect(try await server.request("POST", "/admin/themes/1.1.0/publish", admin: true).status == 200)
        let current = try await server.request("GET", "/themes/current?nativeVersion=1.0.0")
        let tag = try #require(current.headers["etag"])
        #expect(try await server.request("GET", "/themes/current?nativeVersion=1.0.0", headers: ["If-None-Match": tag]).status == 304)

        let users = (0..<200).map { "user-\($0)" }
        let inside = try #require(users.first { Self.bucket($0) < 5000 })
        let outside = try #require(users.first { Self.bucket($0) >= 5000 })
        let newer = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", inside,
                                            "--app-cache", cache.path])
        #expect(newer.status == 0, "\(newer.stderr)")
        #expect(newer.stdout.contains("\"version\": \"1.1.0\""), "\(newer.stdout)")
        #expect(newer.stderr.contains("cart 1.1.0 from \(server.base.absoluteString): fresh 1.1.0"), "\(newer.stderr)")
        // `--json` carries the delivery status.
        let newerJSON = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", inside,
                                                "--app-cache", cache.path, "--json"])
        #expect(newerJSON.stdout.contains(#""delivery":{"app":"cart","version":"1.1.0","source":"network","status":"fresh"}"#), "\(newerJSON.stdout)")
        let older = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", outside,
                                            "--app-cache", server.folder.appendingPathComponent("apps-2").path])
        #expect(older.stdout.contains("\"version\": \"1.0.0\""), "\(older.stdout)")

        let log = server.stop()
        stopped = true
        #expect(!log.contains(server.token), "the admin token must never reach a log line")
        let offline = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", inside,
                                              "--app-cache", cache.path])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout.contains("\"version\": \"1.1.0\""))
        #expect(offline.stderr.contains("offline, last good 1.1.0 (server unreachable:"), "\(offline.stderr)")
        let offlineJSON = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", inside,
                                                  "--app-cache", cache.path, "--json"])
        #expect(offlineJSON.stdout.contains(#""delivery":{"app":"cart","version":"1.1.0","source":"cache","status":"offline","reason":"server unreachable:"#), "\(offlineJSON.stdout)")
    }
    @Test func anIPv6HostIsPrintedInBrackets() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // `ServeLaunch` reads the URL from the line the server prints: it must parse, port and all.
        let launch = try ServeLaunch.start(["--data", folder.appendingPathComponent("data").path, "--host", "::1", "--port", "0"])
        defer {
            launch.process.terminate()
            launch.process.waitUntilExit()
        }
        #expect(launch.base.absoluteString == "http://[::1]:\(launch.port)")
        #expect(launch.base.host == "::1" || launch.base.host == "[::1]")
    }
}
