import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresKit
@testable import StateHubServer
import StateHubTestSupport
import Testing

/// The PostgreSQL database `scripts/with-postgres.sh` started (`STATEHUB_TEST_DATABASE_URL`).
/// In CI (`CI=true`) a missing URL fails these tests; elsewhere they are skipped only when run
/// outside the script.
enum PostgresTestDatabase {
    static let url = TestPostgres.url
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"
    static var enabled: Bool { url != nil || required }

    /// A new empty database on that server; returns its URL.
    static func fresh() async throws -> String {
        guard url != nil else {
            Issue.record("STATEHUB_TEST_DATABASE_URL is not set: run the tests through scripts/test.sh (scripts/with-postgres.sh)")
            throw CancellationError()
        }
        return try await TestPostgres.freshDatabase(prefix: "statehub")
    }
}

@Suite(.tags(.integration), .enabled(if: PostgresTestDatabase.enabled, "needs scripts/with-postgres.sh (required when CI=true)"))
struct PostgresServerTests {
    @Test func publishAndServeOnPostgres() async throws {
        let server = try await TestServer.postgres(url: try await PostgresTestDatabase.fresh())
        do {
            try await server.application.test(.router) { client in
                try await client.upload("cart", "1.0.0", stylesheet: "p{}")
                try await client.upload("cart", "1.1.0")
                #expect(try await client.admin(.put, "/admin/apps/cart/release",
                                               json: #"{"stable":"1.0.0","arms":[{"version":"1.1.0","percent":50}]}"#).status == .ok)
                let inside = Fixtures.user(in: 0..<5000, app: "cart")
                #expect(try await client.manifest("cart", user: inside)["version"] as? String == "1.1.0")
                let bundle = try await client.get("/apps/cart/1.0.0/bundle.js")
                #expect(String(buffer: bundle.body) == "globalThis.loaded = 'cart@1.0.0';")
                #expect(try await client.admin(.put, "/admin/themes/1.0.0", json: Fixtures.theme("1.0.0")).status == .created)
                #expect(try await client.admin(.post, "/admin/themes/1.0.0/publish").status == .ok)
                let theme = try await client.get("/themes/current?nativeVersion=1.0.0")
                let tag = try #require(theme.headers[.eTag])
                #expect(try await client.get("/themes/current?nativeVersion=1.0.0", headers: [.ifNoneMatch: tag]).status == .notModified)
                #expect(try await client.admin(.post, "/admin/apps/cart/rollback").status == .conflict)
            }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    /// A version with assets stored in PostgreSQL and served: every check `ServerAssetTests` makes on SQLite.
    @Test func assetsAreStoredAndServedOnPostgres() async throws {
        try await TestServer.postgres(url: try await PostgresTestDatabase.fresh()).test(.router) { client in
            try await ServerAssetTests.checkServing(client)
        }
    }

    /// Two instances on one database: a change made through one is served by the other on the
    /// very next request (docs/server.md, "Hot reads and invalidation across instances").
    @Test func aReleaseSetThroughOneInstanceIsServedByTheOtherNextRequest() async throws {
        let url = try await PostgresTestDatabase.fresh()
        let first = try await TestServer.postgres(url: url)
        let second = try await TestServer.postgres(url: url)
        do {
            try await first.application.test(.live) { one in
                try await second.application.test(.live) { two in
                    try await one.upload("cart", "1.0.0")
                    try await one.upload("cart", "2.0.0")
                    #expect(try await one.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
                    #expect(try await two.manifest("cart", user: "u")["version"] as? String == "1.0.0")
                    for round in 0..<20 {
                        let (writer, reader) = round.isMultiple(of: 2) ? (one, two) : (two, one)
                        let version = round.isMultiple(of: 2) ? "2.0.0" : "1.0.0"
                        #expect(try await writer.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"\#(version)"}"#).status == .ok)
                        #expect(try await reader.manifest("cart", user: "u")["version"] as? String == version, "round \(round)")
                    }
                    #expect(try await two.admin(.put, "/admin/apps/cart/pin", json: #"{"version":"1.0.0"}"#).status == .ok)
                    #expect(try await one.manifest("cart", user: "u")["reason"] as? String == "pinned")
                    // A token made through one instance works on the other at once.
                    let created = try await one.admin(.post, "/admin/tokens", json: #"{"label":"second"}"#)
                    let token = try #require((try JSONSerialization.jsonObject(with: Data(created.body.readableBytesView)) as? [String: Any])?["token"] as? String)
                    #expect(try await two.admin(.get, "/admin/apps/cart", token: token).status == .ok)
                }
            }
        } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }

    /// Two instances as `statehub serve` runs them (with the notification listener): once each
    /// answers reads from memory, a release, pin, rollback or theme change made through either
    /// is served by the other on the very next request, in 40 alternating rounds.
    @Test func aChangeThroughOneInstanceIsServedFromMemoryByTheOtherNextRequest() async throws {
        let url = try await PostgresTestDatabase.fresh()
        // The test clients keep one connection each while the listeners take their leases
        // (up to 30 s apiece on a loaded machine): longer than the default idle timeout, which
        // then closed a client's connection under it ("I/O on closed channel", CI load).
        let patient = ServerConfiguration(idleTimeout: .seconds(600))
        let first = try await TestServer.postgres(url: url, configuration: patient)
        let second = try await TestServer.postgres(url: url, configuration: patient)
        let logger = Logger(label: "two-instances")
        let appOne = first.server.makeApplication(router: first.server.makeRouter(), logger: logger)
        let appTwo = second.server.makeApplication(router: second.server.makeRouter(), logger: logger)
        do {
            try await appOne.test(.live) { one in
                try await appTwo.test(.live) { two in
                    // The lease is taken on the listener's own connection, with no event outside
                    // the server: polled.
                    for server in [first.server, second.server] {
                        let cache = server.cache
                        await pollUntil("the listener to take its lease") { cache.servesFromMemory }
                    }
                    try await one.upload("cart", "1.0.0")
                    try await two.upload("cart", "2.0.0")
                    for version in ["1.0.0", "1.1.0", "1.2.0"] {
                        #expect(try await one.admin(.put, "/admin/themes/\(version)", json: Fixtures.theme(version)).status == .created)
                    }
                    #expect(try await one.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
                    for round in 0..<40 {
                        let (writer, reader) = round.isMultiple(of: 2) ? (one, two) : (two, one)
                        let version = round.isMultiple(of: 4) ? "2.0.0" : "1.0.0"
                        // Reads first, so the reader holds a snapshot the write must replace.
                        _ = try await reader.manifest("cart", user: "u")
                        switch round % 4 {
                        case 0, 1:
                            #expect(try await writer.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"\#(version)"}"#).status == .ok)
                            #expect(try await reader.manifest("cart", user: "u")["version"] as? String == version, "round \(round)")
                        case 2:
                            #expect(try await writer.admin(.put, "/admin/apps/cart/pin", json: #"{"version":"2.0.0"}"#).status == .ok)
                            #expect(try await reader.manifest("cart", user: "u")["reason"] as? String == "pinned", "round \(round)")
                            #expect(try await writer.admin(.delete, "/admin/apps/cart/pin").status.code < 300)
                            #expect(try await reader.manifest("cart", user: "u")["reason"] as? String != "pinned", "round \(round)")
                        default:
                            #expect(try await writer.admin(.post, "/admin/apps/cart/rollback").status == .ok)
                            #expect(try await reader.manifest("cart", user: "u")["version"] as? String == "2.0.0", "round \(round)")
                        }
                        let theme = ["1.0.0", "1.1.0", "1.2.0"][round % 3]
                        _ = try await reader.get("/themes/current?nativeVersion=1.0.0")
                        #expect(try await writer.admin(.post, "/admin/themes/\(theme)/publish").status == .ok)
                        for newer in ["1.0.0", "1.1.0", "1.2.0"] where newer > theme {
                            #expect(try await writer.admin(.post, "/admin/themes/\(newer)/unpublish").status == .ok)
                        }
                        let current = try await reader.get("/themes/current?nativeVersion=1.0.0")
                        let object = try JSONSerialization.jsonObject(with: Data(current.body.readableBytesView)) as? [String: Any]
                        #expect((object?["metadata"] as? [String: Any])?["version"] as? String == theme, "round \(round)")
                    }
                    #expect(first.server.cache.servesFromMemory && second.server.cache.servesFromMemory,
                            "an instance fell back to checking every read: the rounds did not test the notified path")
                }
            }
        } catch {
            await first.close()
            await second.close()
            throw error
        }
        await first.close()
        await second.close()
    }
}
