import Foundation
@testable import StateHubServer
import StateHubTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Hostile frames on raw sockets against the connection handler that serves sync connections on
/// their channel (docs/sync.md §2.5, "Connections without a task", and "Limits").
extension SyncHandshakeTests {
    /// An upgraded connection to `document` with the admin token (the handshake read).
    static func upgraded(_ port: Int, _ document: String) async throws -> RawConnection {
        let connection = try RawConnection(port: port)
        try connection.send(upgrade("/sync/\(document)", authorization: "Bearer \(TestServer.token)"))
        let handshake = try await connection.read(until: Array("\r\n\r\n".utf8))
        #expect(String(decoding: handshake, as: UTF8.self).hasPrefix("HTTP/1.1 101"), "\(String(decoding: handshake, as: UTF8.self))")
        return connection
    }

    /// A client frame: masked with 1 2 3 4 unless `masked` is false.
    static func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: frame.append(mask | UInt8(payload.count))
        case ..<65_536: frame += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [mask | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard masked else { return frame + payload }
        let key: [UInt8] = [1, 2, 3, 4]
        return frame + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    /// The code of the last close frame in `bytes`, if any.
    static func closeCode(_ bytes: [UInt8]) -> Int? {
        guard let close = frames(bytes).last(where: { $0.opcode == 0x8 }), close.payload.count >= 2 else { return nil }
        return Int(close.payload[0]) << 8 | Int(close.payload[1])
    }

    /// Sync step 1 with an empty state vector: a valid message.
    static let stepOne: [UInt8] = [0, 0, 1, 0]

    /// A client that pings and never reads gets its pongs coalesced (RFC 6455 §5.5.3): while the
    /// channel can take no more, only the latest ping is answered, so the server holds one pong,
    /// not one per ping (2,000,000 pings grew a server by 750 MB). 200,000 pings' pongs (25 MB)
    /// are more than the loopback socket's buffers take, so the channel fills; the latest ping is
    /// still answered once the client reads.
    @Test func pingsFromAClientThatDoesNotReadAreAnsweredCoalesced() async throws {
        var configuration = ServerConfiguration()
        configuration.sync.pingInterval = .seconds(600)
        try await ConnectionFloodTests().withLiveServer(configuration) { port in
            let connection = try await Self.upgraded(port, "pingflood")
            let pings = 200_000, perSend = 5_000
            func payload(_ index: Int) -> [UInt8] {
                (0..<8).map { UInt8(truncatingIfNeeded: index >> ($0 * 8)) } + [UInt8](repeating: 0x2E, count: 117)
            }
            for start in stride(from: 0, to: pings, by: perSend) {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(perSend * 131)
                for index in start..<start + perSend {
                    bytes += [0x89, 0x80 | 125, 0, 0, 0, 0]  // FIN + ping, masked with a zero key
                    bytes += payload(index)
                }
                // Off the pool: a blocking send of megabytes to a server that reads them slowly
                // held one of the cooperative pool's two threads, and other suites' live-server
                // requests ran past their client's 20 s timeout.
                let chunk = bytes, sender = HandedOver(connection)
                try await offThePool { try sender.value.send(bytes: chunk) }
            }
            let lastPong: [UInt8] = [0x8A, 125] + payload(pings - 1)
            let received = try await connection.readToEnd { $0.count >= lastPong.count && Array($0.suffix(lastPong.count)) == lastPong }
            let pongs = Self.frames(received).filter { $0.opcode == 0xA }
            #expect(pongs.last?.payload == payload(pings - 1), "the latest ping is answered")
            #expect(pongs.count < pings, "\(pongs.count) pongs for \(pings) pings: none were coalesced")
        }
    }

    /// A client frame that is not masked is a protocol error (RFC 6455 §5.1: "a server MUST close
    /// the connection upon receiving a frame that is not masked"): `1002`, and the message is not handled.
    @Test func anUnmaskedFrameIsClosedWith1002() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port in
            let connection = try await Self.upgraded(port, "unmasked")
            try connection.send(bytes: Self.clientFrame(0x2, Self.stepOne, masked: false))
            let answer = try await connection.readUntilClose()
            #expect(Self.closeCode(answer) == 1002, "\(Self.frames(answer))")
            // Only the greeting (sync step 1) came before the close: the step 1 got no sync step 2.
            #expect(!Self.frames(answer).contains { $0.opcode == 0x2 && $0.payload.starts(with: [0, 1]) }, "\(Self.frames(answer))")
        }
    }

    /// The client's close frame is checked before it is answered (RFC 6455 §5.5.1, §7.4): a code a
    /// frame must not carry (1005, 1006, 1015, under 1000, unassigned) or a one-byte body is a
    /// protocol error (`1002`), a reason that is no UTF-8 is `1007`; a valid one is echoed.
    @Test(arguments: [
        (body: [0x03, 0xED], answer: 1002),          // 1005: "no status", never sent in a frame
        (body: [0x03, 0xEE], answer: 1002),          // 1006
        (body: [0x03, 0xF7], answer: 1002),          // 1015
        (body: [0x03, 0xE7], answer: 1002),          // 999
        (body: [0x03, 0xEC], answer: 1002),          // 1004: reserved
        (body: [0x07, 0xD0], answer: 1002),          // 2000: unassigned
        (body: [0x13, 0x88], answer: 1002),          // 5000
        (body: [0x03], answer: 1002),                // one byte
        (body: [0x03, 0xE8, 0xFF, 0xFE], answer: 1007),  // 1000, reason not UTF-8
        (body: [0x03, 0xE8, 0x6F, 0x6B], answer: 1000),  // 1000 "ok"
        (body: [0x0F, 0xA0], answer: 4000),          // an application's code
        (body: [], answer: 1000),                    // no code
    ] as [(body: [UInt8], answer: Int)])
    func aClientsCloseFrameIsCheckedBeforeItIsAnswered(_ item: (body: [UInt8], answer: Int)) async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port in
            let connection = try await Self.upgraded(port, "close-codes")
            try connection.send(bytes: Self.clientFrame(0x8, item.body))
            let answer = try await connection.readToEnd()
            #expect(Self.closeCode(answer) == item.answer, "\(item.body): \(Self.frames(answer))")
        }
    }

    /// Connections that end in every way a client can end them (a close frame, a reset in the
    /// middle of a fragmented message, a reset in the middle of a frame, a plain FIN) leave no
    /// connection handler behind: each one holds its channel and its half-joined message, so a
    /// handler left behind by a client that sent 7 MiB of fragments and went away keeps 7 MiB.
    @Test func connectionsThatEndInAnyWayLeaveNoHandlerBehind() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port, server in
            var connections: [RawConnection] = []
            for index in 0..<24 {
                let connection = try await Self.upgraded(port, "leak-\(index % 3)")
                try connection.send(bytes: Self.clientFrame(0x2, Self.stepOne))
                switch index % 4 {
                case 0:
                    try connection.send(bytes: Self.clientFrame(0x8, [0x03, 0xE8]))
                    _ = try await connection.readToEnd()
                case 1:
                    try connection.send(bytes: Self.clientFrame(0x2, [UInt8](repeating: 0, count: 64 << 10), fin: false))
                    try connection.resetOnClose()  // dropped here: closed with a reset
                case 2:
                    try connection.send(bytes: Array(Self.clientFrame(0x2, [UInt8](repeating: 0, count: 4096)).prefix(1000)))
                    try connection.resetOnClose()
                default:
                    connections.append(connection)
                }
            }
            #expect(connections.count == 6)
            connections.removeAll()  // closed: a FIN without a close frame
            // Every connection ends on its own; only a handler that is never freed fails this.
            // Handlers are freed inside NIO as channels close, with no event: the gauge is polled.
            let sync = server.sync
            await pollUntil("every connection handler freed", observed: { "\(sync.liveHandlers.load(ordering: .relaxed)) alive" }) {
                sync.liveHandlers.load(ordering: .relaxed) == 0
            }
            for index in 0..<3 { #expect(await server.sync.connectionCount(document: "leak-\(index)") == 0) }
        }
    }

    /// Every upgraded connection's channel is freed once the connection has ended: a
    /// client that upgrades and closes at once, over and over, must not leave each channel in the
    /// server (about 6 KB: ~38 MB per 6,000 connections). Counted weakly
    /// (`SyncService.upgradedChannels`); the handlers are checked too, so a failure here with no
    /// handler alive points at what else holds the channel.
    @Test func everyUpgradedChannelIsFreedAfterItsConnectionEnds() async throws {
        try await ConnectionFloodTests().withLiveServer(ServerConfiguration()) { port, server in
            for index in 0..<40 {
                let connection = try await Self.upgraded(port, "freed-\(index % 4)")
                switch index % 2 {
                case 0:
                    // A close frame and nothing else: the server answers it and closes.
                    try connection.send(bytes: Self.clientFrame(0x8, [0x03, 0xE8]))
                    _ = try await connection.readToEnd()
                default:
                    try connection.resetOnClose()  // dropped here: a reset
                }
            }
            // Freed inside NIO as channels close, with no event: the gauges are polled.
            let sync = server.sync
            await pollUntil("every connection handler and upgraded channel freed",
                            observed: { "\(sync.liveHandlers.load(ordering: .relaxed)) handlers, \(sync.upgradedChannels.alive) channels alive" }) {
                sync.liveHandlers.load(ordering: .relaxed) == 0 && sync.upgradedChannels.alive == 0
            }
        }
    }
}

extension RawConnection {
    /// Makes the close (when the connection is dropped) a TCP reset (`SO_LINGER` 0): what a
    /// client that crashed or lost its network sends.
    func resetOnClose() throws {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size)) == 0 else {
            throw FloodError("setsockopt: errno \(errno)")
        }
    }

    /// Reads until a whole close frame from the server has arrived (or the server closed),
    /// answers it with a close frame (so the server need not wait for its close timeout), and
    /// returns every byte read after the handshake.
    func readUntilClose() async throws -> [UInt8] {
        let received = try await readToEnd { SyncHandshakeTests.frames($0).contains { $0.opcode == 0x8 } }
        if SyncHandshakeTests.frames(received).contains(where: { $0.opcode == 0x8 }) {
            try? send(bytes: SyncHandshakeTests.clientFrame(0x8, [0x03, 0xE8]))
        }
        return received
    }
}
