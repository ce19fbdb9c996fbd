import StateHubJSON

/// The content of an awareness message (y-protocols' `encodeAwarenessUpdate`): for each client,
/// its clock and its state as JSON text, `null` when the client has left.
///
/// A server relays these and remembers the newest state per client (to greet a new connection,
/// to answer a query, to announce who left with a connection); it never stores them.
public struct AwarenessUpdate: Equatable, Sendable {
    /// One client's presence.
    public struct Entry: Equatable, Sendable {
        /// The Yjs client id (a document's `clientID`).
        public var client: Int
        /// Increases with each change of this client's state; the newer clock wins.
        public var clock: Int
        /// JSON text as the client sent it; `"null"` means the client left.
        public var state: String

        public init(client: Int, clock: Int, state: String) {
            self.client = client
            self.clock = clock
            self.state = state
        }

        /// Whether this entry says the client left.
        public var isRemoval: Bool { state == "null" }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Reads an awareness update; each state must be JSON text (as `JSON.parse` would demand),
    /// nested no deeper than the project's 512 levels.
    public init(decoding bytes: [UInt8]) throws(SyncMessageError) {
        var reader = ByteReader(bytes)
        entries = try SyncMessageError.reading(&reader) { reader throws -> [Entry] in
            // Each entry takes at least three bytes: client, clock, an empty string's length.
            let count = try reader.readCount(minimumSize: 3)
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let client = try reader.readVarUint()
                let clock = try reader.readVarUint()
                let stateOffset = reader.position
                let state = try reader.readString()
                do throws(JSONParseError) { _ = try JSONParser().parse(state) } catch {
                    if case .tooDeep(let maximum) = error.reason {
                        throw SyncMessageError(.awarenessStateTooDeep(client: client, maximum: maximum), at: stateOffset)
                    }
                    throw SyncMessageError(.awarenessStateNotJSON(client: client), at: stateOffset)
                }
                entries.append(Entry(client: client, clock: clock, state: state))
            }
            return entries
        }
        guard reader.isAtEnd else { throw SyncMessageError(.trailingBytes(reader.remaining), at: reader.position) }
    }

    /// The bytes, as y-protocols writes them.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVarUint(entries.count)
        for entry in entries {
            writer.writeVarUint(entry.client)
            writer.writeVarUint(entry.clock)
            writer.writeString(entry.state)
        }
        return writer.bytes
    }
}
