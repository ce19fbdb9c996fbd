import Foundation
import StateHubTestSupport
import Testing
@testable import SharedDocument

/// docs/sync.md §1.2: y-websocket's messages, byte for byte as y-protocols writes them under node,
/// and every malformed shape refused with what was wrong.
@Suite("y-websocket messages", .tags(.integration))
struct SyncMessageTests {
    /// The messages y-protocols wrote, keyed by name (Peers/y-protocols-messages.cjs).
    static func messagesFromYProtocols() async throws -> [String: [UInt8]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", PeerProcess.peersFolder.appendingPathComponent("y-protocols-messages.cjs").path]
        var environment = ProcessInfo.processInfo.environment
        environment["NODE_PATH"] = "/usr/share/nodejs"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await output.fileHandleForReading.readToEndOffThePool()
        await process.exitedOffThePool()
        guard process.terminationStatus == 0,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: String] else {
            throw PeerProcess.Failure(description: "node with node-yjs and node-y-protocols did not print the messages (status \(process.terminationStatus))")
        }
        return object.mapValues { hex in
            stride(from: 0, to: hex.count, by: 2).map { offset in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
            }
        }
    }

    @Test func readsAndWritesWhatYProtocolsWrites() async throws {
        let messages = try await Self.messagesFromYProtocols()
        let stateVector = try #require(messages["sv"])
        let full = try #require(messages["full"])
        let expected: [String: SyncMessage] = [
            "step1": .syncStep1(stateVector: stateVector),
            "step2": .syncStep2(update: full),
            "update": .update(full),
            "denied": .permissionDenied(reason: "read-only token for \"board\""),
            "query": .queryAwareness,
        ]
        for (name, message) in expected {
            let bytes = try #require(messages[name], "\(name) missing")
            #expect(try SyncMessage(decoding: bytes) == message, "\(name)")
            #expect(message.encoded() == bytes, "\(name) written differently")
        }
        // The update inside step 2 is a real document.
        let document = SharedDocument()
        try document.applyUpdate(full)
        document.inferRootKinds()
        #expect(try document.toJSON() == .object(["m": .object(["k": .string("v")]), "t": .string("héllo")]))
    }

    @Test func awarenessUpdatesRoundTrip() async throws {
        let messages = try await Self.messagesFromYProtocols()
        for name in ["awareness", "awarenessLeft"] {
            let bytes = try #require(messages[name])
            guard case .awareness(let payload) = try SyncMessage(decoding: bytes) else {
                Issue.record("\(name) is not an awareness message"); continue
            }
            let update = try AwarenessUpdate(decoding: payload)
            #expect(update.entries.count == 1)
            #expect(update.entries.first?.client == 7)
            #expect(update.encoded() == payload)
            #expect(SyncMessage.awareness(update.encoded()).encoded() == bytes)
            #expect(update.entries.first?.isRemoval == (name == "awarenessLeft"))
        }
        let present = try AwarenessUpdate(decoding: Array(try #require(messages["awareness"]).dropFirst(2)))
        #expect(present.entries.first?.state == ##"{"user":{"name":"Zoë","color":"#ff0"},"cursor":null}"##)
    }

    @Test func acknowledgementRoundTrips() throws {
        for count in [0, 1, 127, 128, 1 << 40] {
            let message = SyncMessage.acknowledgement(count: count)
            #expect(try SyncMessage(decoding: message.encoded()) == message)
        }
        #expect(SyncMessage.acknowledgement(count: 300).encoded() == [100, 0xAC, 0x02])
    }

    @Test(arguments: [
        ([4], SyncMessageError.Kind.unknownMessageType(4)),
        ([0, 3, 0], .unknownSyncStep(3)),
        ([2, 1, 0], .unknownAuthMessage(1)),
        ([3, 0], .trailingBytes(1)),
        ([0, 0, 1, 0, 9], .trailingBytes(1)),
        ([0], .malformed(.truncated)),
        ([0, 2, 5, 1, 2], .malformed(.invalidLength)),
        ([0, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], .malformed(.overflow)),
        ([2, 0, 2, 0xC3, 0x28], .malformed(.invalidUTF8)),
        ([], .malformed(.truncated)),
    ] as [([UInt8], SyncMessageError.Kind)])
    func malformedMessagesSayWhatWasWrong(bytes: [UInt8], kind: SyncMessageError.Kind) {
        #expect(throws: SyncMessageError.self) { try SyncMessage(decoding: bytes) }
        do {
            _ = try SyncMessage(decoding: bytes)
        } catch {
            #expect(error.kind == kind, "\(bytes): \(error)")
        }
    }

    @Test func hugeLengthsAreRefusedWithoutAllocating() {
        // A 2⁵²-byte update announced in eight bytes: refused by length where the length ends, nothing allocated.
        #expect(throws: SyncMessageError(.malformed(.invalidLength), at: 10)) {
            try SyncMessage(decoding: [0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x08])
        }
        // A million awareness entries announced in a few bytes.
        #expect(throws: SyncMessageError.self) { try AwarenessUpdate(decoding: [0xC0, 0x84, 0x3D, 1, 1]) }
    }

    @Test func awarenessStatesMustBeJSON() {
        var writer = ByteWriter()
        writer.writeVarUint(1)
        writer.writeVarUint(9)
        writer.writeVarUint(1)
        writer.writeString("{not json")
        #expect(throws: SyncMessageError(.awarenessStateNotJSON(client: 9), at: 3)) {
            try AwarenessUpdate(decoding: writer.bytes)
        }
    }

    @Test func aDeeplyNestedAwarenessStateSaysTooDeep() {
        var writer = ByteWriter()
        writer.writeVarUint(1)
        writer.writeVarUint(9)
        writer.writeVarUint(1)
        writer.writeString(String(repeating: "[", count: 100_000))
        #expect(throws: SyncMessageError(.awarenessStateTooDeep(client: 9, maximum: 512), at: 3)) {
            try AwarenessUpdate(decoding: writer.bytes)
        }
        var message = ""
        do { _ = try AwarenessUpdate(decoding: writer.bytes) } catch { message = error.description }
        #expect(message.contains("nested deeper than 512 levels"), "\(message)")
    }
}
