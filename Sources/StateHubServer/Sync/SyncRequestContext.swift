import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of the WebSocket router: Hummingbird's basic one plus the channel (to cut
/// a slow client off at once) and what the token check granted, handed from the upgrade
/// decision to the connection's handler.
public struct SyncRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<SyncRequestContext>
    let channel: any Channel
    let grant: GrantBox

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
        grant = GrantBox()
    }

    final class GrantBox: Sendable {
        let value = Mutex<SyncGrant?>(nil)
    }
}

/// What a connection may do, decided before the upgrade (docs/sync.md §1.1, §2.3).
struct SyncGrant: Sendable {
    var access: DocumentAccess
    /// The document token's id; `nil` for an admin token.
    var tokenID: Int?
    var acknowledgements: Bool
}

/// A document's name in `/sync/{document}`: `[A-Za-z0-9][A-Za-z0-9._-]{0,127}`, compared exactly.
enum DocumentName {
    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 128, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
