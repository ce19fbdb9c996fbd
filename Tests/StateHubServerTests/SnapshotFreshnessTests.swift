import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

/// On SQLite, with readers hammering the manifest, a release or pin is served by the very next
/// request after the admin answer, however many readers are running: a refresh in flight must
/// not make the old snapshot look fresh (docs/server.md).
@Suite(.tags(.integration)) struct SnapshotFreshnessTests {
    @Test func aChangeIsServedByTheNextRequestWhileOthersRead() async throws {
        let server = try await TestServer.sqlite()
        try await server.test(.live) { client in
            for version in ["1.0.0", "1.1.0", "1.2.0"] { try await client.upload("cart", version) }
            #expect(try await client.admin(.put, "/admin/apps/cart/release", json: #"{"stable":"1.0.0"}"#).status == .ok)
            try await withThrowingTaskGroup(of: Void.self) { group in
                let stop = ManagedAtomicFlag()
                let port = try #require(client.port)
                // Readers on connections of their own (URLSession), so their requests run on the
                // server while the admin change and the next read are in flight.
                for reader in 0..<4 {
                    group.addTask {
                        let session = URLSession(configuration: .ephemeral)
                        while !stop.isSet {
                            guard let url = URL(string: "http://127.0.0.1:\(port)/apps/cart/manifest?user=reader\(reader)") else { return }
                            _ = try? await session.data(from: url)
                        }
                    }
                }
                let rounds: [(String, String, String)] = [
                    ("/admin/apps/cart/release", #"{"stable":"1.1.0"}"#, "1.1.0"),
                    ("/admin/apps/cart/pin", #"{"version":"1.2.0"}"#, "1.2.0"),
                    ("/admin/apps/cart/release", #"{"stable":"1.0.0"}"#, "1.2.0"),  // still pinned
                ]
                for round in 0..<20 {
                    for (path, body, expected) in rounds {
                        #expect(try await client.admin(.put, path, json: body).status == .ok)
                        let served = try await client.manifest("cart", user: "alice")["version"] as? String
                        #expect(served == expected, "round \(round): \(path) \(body)")
                    }
                    #expect(try await client.admin(.delete, "/admin/apps/cart/pin").status.code < 300)
                    #expect(try await client.manifest("cart", user: "alice")["version"] as? String == "1.0.0", "round \(round): unpinned")
                }
                stop.set()
                try await group.waitForAll()
            }
        }
    }
}

/// A flag readers poll; set once.
final class ManagedAtomicFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
