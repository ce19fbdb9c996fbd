import Delivery
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import StyleTokens
import Testing

/// A server or CDN that sends far more than it should (docs/server.md, "Delivery (device side)"):
/// Delivery keeps one byte past the manifest's size of each file, and past its manifest limit,
/// then cancels the request and refuses the file by name.
@Suite(.tags(.integration)) struct OversizedAnswerTests {
    /// A live server that answers every GET with ``total`` bytes, chunked (no `Content-Length`
    /// for a client to check first): more than any limit here.
    enum FloodServer {
        static let total = 8 << 20
        static let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 << 10)

        /// A new flood server on loopback, for `body`.
        static func serve(_ body: @Sendable (URL) async throws -> Void) async throws {
            let router = Router()
            router.get("**") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: ResponseBody { writer in
                    for _ in 0 ..< total / chunk.readableBytes { try await writer.write(chunk) }
                    try await writer.finish(nil)
                })
            }
            try await Application(router: router).test(.live) { client in
                let port = try #require(client.port)
                try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
            }
        }
    }

    static let stylesheet = "body { color: red; }"

    @Test func aFileLongerThanSignedIsRefusedByName() async throws {
        let publisher = ReleaseSigningKey()
        try await SignedReleaseTests.withFaultyDelivery(trusting: publisher) { _, client, delivery, http in
            try await SignedReleaseTests.publish(client, "1.0.0", stylesheet: Self.stylesheet,
                                                 signature: try SignedReleaseTests.sign("1.0.0", stylesheet: Self.stylesheet, with: publisher))
            let sizes = ["bundle.js": SignedReleaseTests.bundle("1.0.0").utf8.count, "style.css": Self.stylesheet.utf8.count,
                         "img/logo.png": SignedReleaseTests.logo.count]
            for (file, size) in sizes.sorted(by: { $0.key < $1.key }) {
                try await FloodServer.serve { floodURL in
                    // A CDN in front of the server answers this one file with 8 MiB.
                    http.fault.withLock { $0 = .serveFrom("/1.0.0/\(file)", floodURL) }
                    await #expect(throws: DeliveryError(app: "cart", problems: [.oversized(file: file, expected: size)])) {
                        _ = try await SignedReleaseTests.load(delivery)
                    }
                }
            }
            http.fault.withLock { $0 = .none }
            #expect(try await SignedReleaseTests.load(delivery).status == .fresh(version: "1.0.0"))
        }
    }

    @Test func aManifestLongerThanTheLimitIsRefused() async throws {
        let publisher = ReleaseSigningKey()
        try await SignedReleaseTests.withFaultyDelivery(trusting: publisher) { _, client, delivery, http in
            try await SignedReleaseTests.publish(client, "1.0.0", signature: try SignedReleaseTests.sign("1.0.0", with: publisher))
            #expect(try await SignedReleaseTests.load(delivery).status == .fresh(version: "1.0.0"))
            try await FloodServer.serve { floodURL in
                http.fault.withLock { $0 = .serveFrom("/manifest", floodURL) }
                let limit = MicroAppDelivery.Configuration.defaultManifestLimit
                let status = try await SignedReleaseTests.load(delivery).status
                #expect(status == .fallback(version: "1.0.0", reason: .oversizedManifest(limit: limit)))
            }
        }
    }

    @Test func aVersionLargerThanTheLimitIsNotDownloaded() async throws {
        let publisher = ReleaseSigningKey()
        try await SignedReleaseTests.withFaultyDelivery(trusting: publisher) { _, client, delivery, http in
            try await SignedReleaseTests.publish(client, "1.0.0", signature: try SignedReleaseTests.sign("1.0.0", with: publisher))
            // A server that names a terabyte asset: refused before any file is asked for.
            let terabyte = 1 << 40
            http.fault.withLock { $0 = .rewriteManifest(#""size":\#(SignedReleaseTests.logo.count)"#, #""size":\#(terabyte)"#) }
            let total = SignedReleaseTests.bundle("1.0.0").utf8.count + terabyte
            let limit = MicroAppDelivery.Configuration.defaultVersionLimit
            await #expect(throws: DeliveryError(app: "cart", problems: [.oversizedVersion(version: "1.0.0", size: total, limit: limit)])) {
                _ = try await SignedReleaseTests.load(delivery)
            }
            #expect(!http.log.withLock { $0 }.contains { $0.url.contains("/1.0.0/") }, "no file of the version was requested")
        }
    }

    @Test func theClientKeepsOneBytePastTheLimit() async throws {
        try await FloodServer.serve { url in
            let response = try await URLSessionHTTPClient().get(url.appendingPathComponent("anything"), headers: [:], bodyLimit: 10)
            #expect(response.status == 200)
            #expect(response.body == Data(repeating: UInt8(ascii: "x"), count: 11))
        }
    }

    @Test func aThemeLongerThanTheLimitIsRefused() async throws {
        try await FloodServer.serve { url in
            let source = HTTPThemeSource(server: url)
            let location = url.absoluteString + "/themes/current?nativeVersion=1.0.0"
            await #expect(throws: ThemeSourceError.unreadable(location: location,
                                                              reason: "more than \(HTTPThemeSource.themeLimit) bytes; reading stopped there")) {
                _ = try await source.fetchTheme(forMajorVersion: 1)
            }
        }
    }
}
