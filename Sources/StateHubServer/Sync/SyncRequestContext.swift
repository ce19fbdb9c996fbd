import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of the WebSocket router: Hummingbird's basic one plus the channel (to cut
/// a slow client off at once) and what the token check granted, handed from the upgrade
/// decision to the connection's handler.
public struct SyncRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Where hummingbird-websocket's route leaves the upgrade's handler for its channel code; empty
    /// once the channel has closed (see `WebSocketSlot`).
    public var webSocket: WebSocketHandlerReference<SyncRequestContext> { webSocketSlot.reference }
    let channel: any Channel
    let grant: GrantBox
    private let webSocketSlot: WebSocketSlot

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        grant = GrantBox()
        let slot = WebSocketSlot()
        webSocketSlot = slot
        source.channel.closeFuture.whenComplete { _ in slot.release() }
    }

    final class GrantBox: Sendable {
        let value = Mutex<SyncGrant?>(nil)
    }

    /// Holds the context's `WebSocketHandlerReference` until the channel closes.
    ///
    /// hummingbird-websocket's `ws` route stores the upgrade's handler together with the request
    /// context in the context's own reference (a box only that package can empty, and never does):
    /// box → context → box, a cycle that kept the context, and through ``channel`` the whole
    /// upgraded channel (about 6 KB), after every upgraded connection. The context reaches
    /// the box only through this slot, which lets go of it when the channel closes; the upgrade
    /// reads the box before that, and a closed channel upgrades nothing.
    final class WebSocketSlot: Sendable {
        private let held = Mutex<WebSocketHandlerReference<SyncRequestContext>?>(.init())

        /// The context's reference; after ``release()``, an empty one that nothing keeps.
        var reference: WebSocketHandlerReference<SyncRequestContext> { held.withLock { $0 } ?? .init() }

        func release() { held.withLock { $0 = nil } }
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
