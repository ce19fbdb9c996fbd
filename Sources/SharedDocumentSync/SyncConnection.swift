/// One open connection to a sync server: binary messages in, binary messages out, in order.
///
/// ``SyncedDocument`` uses ``WebSocketSyncTransport`` (a real WebSocket); the protocol exists
/// so an app can route through its own networking.
public protocol SyncConnection: Sendable {
    /// Messages from the server, one per frame, in order. Ends when the connection closes;
    /// throws ``SyncConnectionClosed`` when the server or the network ended it with a reason.
    var inbound: AsyncThrowingStream<[UInt8], any Error> { get }
    /// Queues one message; messages leave in the order they were queued. Never blocks.
    func send(_ message: [UInt8])
    /// Closes the connection (the inbound stream then ends).
    func close()
}

/// Opens connections to a sync server.
public protocol SyncTransport: Sendable {
    /// Connects to `url` (a `ws://` or `wss://` URL with the document and query already in it).
    func connect(to url: String) async throws -> any SyncConnection
}

/// How a connection ended, when it ended with something to say.
public struct SyncConnectionClosed: Error, Equatable, Sendable, CustomStringConvertible {
    /// The WebSocket close code, if a close frame came.
    public var code: Int?
    public var reason: String

    public init(code: Int?, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { code.map { "closed \($0): \(reason)" } ?? reason }
}
