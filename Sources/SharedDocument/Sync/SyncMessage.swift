/// One message of the y-websocket protocol (`y-protocols` sync, awareness and auth, plus our
/// opt-in acknowledgement): what a server and a client send each other in one binary WebSocket
/// frame. docs/sync.md §1.2 is the specification; the numbers are y-protocols' own.
///
/// Decoding is strict: an unknown message type, a sync step other than 0–2, a truncated field or
/// bytes after the message are a ``SyncMessageError`` naming what was wrong, never a guess. The
/// update and state-vector bytes inside are not read here: the document reads them when it
/// applies them, with its own typed errors.
public enum SyncMessage: Equatable, Sendable {
    /// Sync step 1: the sender's encoded state vector; the answer is ``syncStep2(update:)``.
    case syncStep1(stateVector: [UInt8])
    /// Sync step 2: a v1 update with what the receiver of a step 1 lacks.
    case syncStep2(update: [UInt8])
    /// A v1 update made after the two sides synced.
    case update([UInt8])
    /// An awareness update (presence: who is here, cursors); see ``AwarenessUpdate``.
    case awareness([UInt8])
    /// The receiver may not do what it tried (a read-only client sent a change), and why.
    case permissionDenied(reason: String)
    /// "Send me everyone's awareness state."
    case queryAwareness
    /// StateHub's opt-in acknowledgement (docs/sync.md §1.4): this many document-changing
    /// messages received on this connection are durable. Sent only to clients that asked.
    case acknowledgement(count: Int)

    /// The first number of a message.
    public enum MessageType: Int, Sendable {
        case sync = 0
        case awareness = 1
        case auth = 2
        case queryAwareness = 3
        case acknowledgement = 100
    }

    /// The second number of a sync message.
    public enum SyncStep: Int, Sendable {
        case step1 = 0
        case step2 = 1
        case update = 2
    }

    /// Reads one whole message; trailing bytes are an error.
    public init(decoding bytes: [UInt8]) throws(SyncMessageError) {
        var reader = ByteReader(bytes)
        self = try SyncMessageError.reading(&reader) { reader throws -> SyncMessage in
            let typeNumber = try reader.readVarUint()
            guard let type = MessageType(rawValue: typeNumber) else { throw SyncMessageError(.unknownMessageType(typeNumber), at: 0) }
            switch type {
            case .sync:
                let stepOffset = reader.position
                let stepNumber = try reader.readVarUint()
                guard let step = SyncStep(rawValue: stepNumber) else { throw SyncMessageError(.unknownSyncStep(stepNumber), at: stepOffset) }
                let payload = try reader.readVarBytes()
                switch step {
                case .step1: return .syncStep1(stateVector: payload)
                case .step2: return .syncStep2(update: payload)
                case .update: return .update(payload)
                }
            case .awareness:
                return .awareness(try reader.readVarBytes())
            case .auth:
                let kindOffset = reader.position
                let kind = try reader.readVarUint()
                guard kind == 0 else { throw SyncMessageError(.unknownAuthMessage(kind), at: kindOffset) }
                return .permissionDenied(reason: try reader.readString())
            case .queryAwareness:
                return .queryAwareness
            case .acknowledgement:
                return .acknowledgement(count: try reader.readVarUint())
            }
        }
        guard reader.isAtEnd else { throw SyncMessageError(.trailingBytes(reader.remaining), at: reader.position) }
    }

    /// The message's bytes, as y-protocols writes them.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .syncStep1(let stateVector): writer.writeSync(.step1, stateVector)
        case .syncStep2(let update): writer.writeSync(.step2, update)
        case .update(let update): writer.writeSync(.update, update)
        case .awareness(let update):
            writer.writeVarUint(MessageType.awareness.rawValue)
            writer.writeVarBytes(update)
        case .permissionDenied(let reason):
            writer.writeVarUint(MessageType.auth.rawValue)
            writer.writeVarUint(0)
            writer.writeString(reason)
        case .queryAwareness:
            writer.writeVarUint(MessageType.queryAwareness.rawValue)
        case .acknowledgement(let count):
            writer.writeVarUint(MessageType.acknowledgement.rawValue)
            writer.writeVarUint(max(count, 0))
        }
        return writer.bytes
    }

    /// Whether the message carries document content (sync step 2 or update): the messages a
    /// read-only client may not send with anything new in them, and the ones acknowledgements count.
    public var carriesUpdate: Bool {
        switch self {
        case .syncStep2, .update: true
        default: false
        }
    }
}

private extension ByteWriter {
    mutating func writeSync(_ step: SyncMessage.SyncStep, _ payload: [UInt8]) {
        writeVarUint(SyncMessage.MessageType.sync.rawValue)
        writeVarUint(step.rawValue)
        writeVarBytes(payload)
    }
}
