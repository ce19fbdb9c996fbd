/// A y-websocket message that could not be read: what was wrong and at which byte.
public struct SyncMessageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was wrong.
    public enum Kind: Equatable, Sendable {
        /// A first number y-protocols does not define (nor our acknowledgement, 100).
        case unknownMessageType(Int)
        /// A sync message whose step is not 0, 1 or 2.
        case unknownSyncStep(Int)
        /// An auth message other than permission denied (0).
        case unknownAuthMessage(Int)
        /// Bytes left after a whole message.
        case trailingBytes(Int)
        /// An awareness state that is not JSON text.
        case awarenessStateNotJSON(client: Int)
        /// An awareness state nested deeper than `maximum` levels.
        case awarenessStateTooDeep(client: Int, maximum: Int)
        /// A field could not be read (truncated, too long, not UTF-8, a number over 53 bits).
        case malformed(UpdateDecodingError.Kind)
    }

    public let kind: Kind
    /// Byte offset in the message where the problem was found.
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        switch kind {
        case .unknownMessageType(let type): "unknown message type \(type) at byte \(offset) (y-protocols defines 0 sync, 1 awareness, 2 auth, 3 query awareness)"
        case .unknownSyncStep(let step): "unknown sync step \(step) at byte \(offset) (0 step 1, 1 step 2, 2 update)"
        case .unknownAuthMessage(let kind): "unknown auth message \(kind) at byte \(offset) (0 is permission denied)"
        case .trailingBytes(let count): "\(count) bytes after the end of the message at byte \(offset)"
        case .awarenessStateNotJSON(let client): "the awareness state of client \(client) is not JSON text (at byte \(offset))"
        case .awarenessStateTooDeep(let client, let maximum): "the awareness state of client \(client) is nested deeper than \(maximum) levels (at byte \(offset))"
        case .malformed(let kind): "malformed message: \(UpdateDecodingError(kind, at: offset))"
        }
    }
}

extension SyncMessageError {
    /// Runs `read` over `reader`; the reader's own errors (truncated, too long, not UTF-8) become
    /// ``Kind/malformed(_:)`` at the same offset, so a caller sees one error type.
    static func reading<Value>(_ reader: inout ByteReader, _ read: (inout ByteReader) throws -> Value) throws(SyncMessageError) -> Value {
        do {
            return try read(&reader)
        } catch let error as SyncMessageError {
            throw error
        } catch let error as UpdateDecodingError {
            throw SyncMessageError(.malformed(error.kind), at: error.offset)
        } catch {
            throw SyncMessageError(.malformed(.invalidStructure("\(error)")), at: reader.position)
        }
    }
}
