import NIOWebSocket

/// Why a sync connection was closed by the server: a typed problem (a code and a sentence) and
/// the WebSocket close code it is sent with (docs/sync.md §1.2). The document is unchanged and
/// no other connection is affected. A struct over a code string so new codes do not break users.
public struct SyncProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `malformed-message`, `malformed-update`, `document-too-large`, `too-many-clients`, `too-many-pending-deletes`, `too-many-awareness-clients`, `awareness-too-large`, `text-frame`, `storage`.
    public let code: String
    public let message: String
    /// The WebSocket close code: 1007 for bytes that do not read, 1003 for a text frame, 1008 for an
    /// update past a document's limits, 1011 when storage failed.
    public let closeCode: UInt16

    public init(code: String, message: String, closeCode: UInt16) {
        self.code = code
        self.message = message
        self.closeCode = closeCode
    }

    public var description: String { "\(code): \(message)" }

    /// The close frame's reason: `code: message`, cut to the 123 bytes a close frame may carry.
    var closeReason: String {
        var reason = description
        while reason.utf8.count > 123 { reason.removeLast() }
        return reason
    }

    var webSocketCode: WebSocketErrorCode { WebSocketErrorCode(codeNumber: Int(closeCode)) }

    static func malformedMessage(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "malformed-message", message: detail, closeCode: 1007)
    }
    static func malformedUpdate(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "malformed-update", message: detail, closeCode: 1007)
    }
    static func documentTooLarge(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "document-too-large", message: detail, closeCode: 1008)
    }
    static func tooManyClients(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "too-many-clients", message: detail, closeCode: 1008)
    }
    static func tooManyPendingDeletes(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "too-many-pending-deletes", message: detail, closeCode: 1008)
    }
    static func tooManyAwarenessClients(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "too-many-awareness-clients", message: detail, closeCode: 1008)
    }
    static func awarenessTooLarge(_ detail: String) -> SyncProtocolError {
        SyncProtocolError(code: "awareness-too-large", message: detail, closeCode: 1008)
    }
    static let textFrame = SyncProtocolError(code: "text-frame", message: "y-websocket messages are binary frames", closeCode: 1003)
    static let storage = SyncProtocolError(code: "storage", message: "the document could not be stored; reconnect", closeCode: 1011)
}
