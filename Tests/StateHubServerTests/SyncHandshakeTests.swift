import Foundation
import StateHubServer
import Testing

/// The sync endpoint's handshake and frame cap on raw sockets (docs/sync.md §1.1, §2.5): what a
/// WebSocket client library would hide.
@Suite(.tags(.integration)) struct SyncHandshakeTests {
    static func upgrade(_ path: String, authorization: String? = nil) -> String {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let authorization { request += "Authorization: \(authorization)\r\n" }
        return request + "\r\n"
    }

    /// Status line and JSON body of an answer read until the server closed.
    static func parse(_ answer: String) throws -> (status: String, headers: [String], body: [String: String]) {
        let parts = answer.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let body = try JSONSerialization.jsonObject(with: Data(parts.dropFirst().joined(separator: "\r\n\r\n").utf8)) as? [String: String]
        return (head[0], Array(head.dropFirst()), body ?? [:])
    }

    @Test func aRefusedUpgradeGetsTheStatusAndJSONProblemOfAPlainGet() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port in
            let cases: [(path: String, authorization: String?, status: String, error: String)] = [
                ("/sync/d1", nil, "HTTP/1.1 401 Unauthorized", "unauthorized"),
                ("/sync/d1?token=not-a-token", nil, "HTTP/1.1 401 Unauthorized", "unauthorized"),
                ("/sync/d1", "Bearer wrong", "HTTP/1.1 401 Unauthorized", "unauthorized"),
                ("/sync/-bad", nil, "HTTP/1.1 400 Bad Request", "invalid-name"),
            ]
            for item in cases {
                let answer = try await RawConnection(port: port).exchange(Self.upgrade(item.path, authorization: item.authorization))
                let (status, headers, body) = try Self.parse(answer)
                #expect(status == item.status, "\(item.path): \(answer)")
                #expect(body["error"] == item.error, "\(item.path): \(answer)")
                #expect(body["message"]?.isEmpty == false, "\(item.path): \(answer)")
                #expect(headers.contains { $0.lowercased() == "content-type: application/json; charset=utf-8" }, "\(answer)")
                #expect(headers.contains { $0.lowercased() == "connection: close" }, "\(answer)")
                if item.error == "unauthorized" {
                    #expect(headers.contains { $0.lowercased() == "www-authenticate: bearer" }, "\(answer)")
                }
            }
            // The server still answers on new connections, and a plain GET says the same thing.
            let plain = try await RawConnection(port: port).exchange("GET /sync/d1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(try Self.parse(plain).status == "HTTP/1.1 401 Unauthorized", "\(plain)")
            #expect(try Self.parse(plain).body["error"] == "unauthorized", "\(plain)")
        }
    }

    /// A frame that declares 9 MiB, past the 8 MiB message cap, is refused from its header: the
    /// server sends close `1009` (message too big) and closes, before any payload is read.
    @Test func aNineMebibyteFrameIsClosedWith1009() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.upgrade("/sync/d9", authorization: "Bearer \(TestServer.token)"))
            let handshake = try await connection.read(until: Array("\r\n\r\n".utf8))
            #expect(String(decoding: handshake, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "\(String(decoding: handshake, as: UTF8.self))")
            // FIN + binary, masked, 64-bit length 9 MiB, a mask, then only a few payload bytes.
            let length = UInt64(9 << 20)
            var frame: [UInt8] = [0x82, 0x80 | 127]
            frame += (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) }
            frame += [1, 2, 3, 4] + [UInt8](repeating: 0, count: 16)
            try connection.send(bytes: frame)
            let answer = try await connection.readToEnd()
            // Whatever the server sent first (its sync step 1 to the new client), the last frame is the close.
            guard let close = Self.lastFrame(answer) else {
                Issue.record("no frame after the handshake: \(answer)")
                return
            }
            #expect(close.opcode == 0x8, "\(close)")
            #expect(close.payload.count >= 2 && (Int(close.payload[0]) << 8 | Int(close.payload[1])) == 1009, "\(close)")
        }
    }

    /// The connection is served on its channel (docs/sync.md §2.5, "Connections without a task"):
    /// a ping is answered with its payload. The server's own pings come every 600 s here, past
    /// the wait's deadline, so a loaded machine cannot close the connection before the answer.
    @Test func aPingIsAnsweredWithItsPayload() async throws {
        var configuration = ServerConfiguration()
        configuration.sync.pingInterval = .seconds(600)
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.upgrade("/sync/ping1", authorization: "Bearer \(TestServer.token)"))
            let handshake = try await connection.read(until: Array("\r\n\r\n".utf8))
            #expect(String(decoding: handshake, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "\(String(decoding: handshake, as: UTF8.self))")
            // FIN + ping, masked, payload "hi" under the mask 1 2 3 4.
            try connection.send(bytes: [0x89, 0x82, 1, 2, 3, 4, UInt8(ascii: "h") ^ 1, UInt8(ascii: "i") ^ 2])
            let frames = Self.frames(try await connection.readToEnd { Self.frames($0).contains { $0.opcode == 0xA } })
            #expect(frames.contains { $0.opcode == 0xA && $0.payload == Array("hi".utf8) }, "\(frames)")
        }
    }

    /// The server pings every `pingInterval`, and a client that leaves a ping unanswered until the
    /// next one is closed with `1001`, not before the interval has passed.
    @Test func aClientThatNeverPongsIsClosedWith1001() async throws {
        var configuration = ServerConfiguration()
        configuration.sync.pingInterval = .milliseconds(300)
        let pingInterval = configuration.sync.pingInterval
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try RawConnection(port: port)
            let start = ContinuousClock.now
            try connection.send(Self.upgrade("/sync/ping2", authorization: "Bearer \(TestServer.token)"))
            let handshake = try await connection.read(until: Array("\r\n\r\n".utf8))
            #expect(String(decoding: handshake, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "\(String(decoding: handshake, as: UTF8.self))")
            let frames = Self.frames(try await connection.readToEnd())
            #expect(ContinuousClock.now - start >= pingInterval, "closed before a ping interval had passed")
            #expect(frames.contains { $0.opcode == 0x9 }, "\(frames)")
            guard let close = frames.last else {
                Issue.record("no frame after the handshake")
                return
            }
            #expect(close.opcode == 0x8, "\(frames)")
            #expect(close.payload.count >= 2 && (Int(close.payload[0]) << 8 | Int(close.payload[1])) == 1001, "\(close)")
        }
    }

    /// Every whole unmasked server frame, in order.
    static func frames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var index = 0
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126, start + 2 <= bytes.count {
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127, start + 8 <= bytes.count {
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((opcode, Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }

    /// Unmasked server frames read in order; `nil` when none is whole.
    static func lastFrame(_ bytes: [UInt8]) -> (opcode: UInt8, payload: [UInt8])? {
        frames(bytes).last
    }
}
