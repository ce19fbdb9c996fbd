import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

/// Hands an upgraded sync connection to a ``SyncWebSocketHandler`` on the channel itself, so no
/// Swift task waits for it (docs/sync.md §2.5, "Connections without a task").
///
/// hummingbird-websocket still decides and performs the upgrade. Its upgrade handler announces
/// the finished upgrade (`HTTPServerUpgradeEvents.upgradeComplete`) after it has put NIO's frame
/// decoder and encoder in the pipeline and before it replays what the client sent meanwhile; this
/// handler, after the upgrade handler, puts the sync handler after the decoder at that moment, so
/// every frame reaches it. ``GuardedWebSocketUpgradeChannel`` then asks ``tookOver(_:keeping:)``
/// and does not run hummingbird-websocket's connection task (its WebSocket handler, task group and
/// ping task held about 17 KiB of task stack per open connection). Any other outcome (a plain
/// request, a refused upgrade, a closed connection) answers no; a refused upgrade is told by
/// ``SyncUpgradeOutcomeMiddleware``, since nothing of it passes this handler.
final class SyncUpgradeTakeover: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    /// What the upgrade decision granted, set from its task before the upgrade goes ahead.
    final class Slot: Sendable {
        fileprivate let grant = Mutex<(document: String, grant: SyncGrant, sync: SyncService)?>(nil)
    }

    let slot = Slot()
    private var decision: EventLoopPromise<Bool>?
    private var isDecided = false
    /// hummingbird-websocket's side of the connection (its NIO async channel), kept unused for
    /// as long as the channel lives: dropping it would stop the channel's reads and half-close it.
    private var kept: (any Sendable)?

    func handlerAdded(context: ChannelHandlerContext) {
        decision = context.eventLoop.makePromise(of: Bool.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        decide(false)
    }

    private func decide(_ value: Bool) {
        guard !isDecided else { return }
        isDecided = true
        decision?.succeed(value)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // The upgrade handler holds every read until it has decided: a read here means no upgrade.
        // Passed on before leaving: a removed handler's context passes nothing on.
        context.fireChannelRead(data)
        if !isDecided {
            decide(false)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        decide(false)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NIO's upgrader refused the request's WebSocket headers: no upgrade.
        decide(false)
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete = event as? HTTPServerUpgradeEvents, let granted = slot.grant.withLock({ $0 }) {
            do {
                let decoder = try context.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                let errors = try? context.pipeline.syncOperations.context(handlerType: WebSocketProtocolErrorHandler.self)
                let handler = SyncWebSocketHandler(document: granted.document, grant: granted.grant, sync: granted.sync)
                try context.pipeline.syncOperations.addHandler(handler, position: .after((errors ?? decoder).handler))
                granted.sync.upgradedChannels.add(context.channel)
                decide(true)
            } catch {
                granted.sync.logger.error("sync: taking over the connection to \(granted.document) failed: \(error)")
                decide(false)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Records what the upgrade decision granted on `channel` (no-op on a channel without this
    /// handler: the connection is then served by hummingbird-websocket's task, ``SyncService/serve``).
    static func record(document: String, grant: SyncGrant, sync: SyncService, on channel: any Channel) async {
        _ = try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: SyncUpgradeTakeover.self).slot
        }.get().grant.withLock { $0 = (document, grant, sync) }
    }

    /// After the upgrade decision: without a grant on `channel` there will be no upgrade.
    static func settle(on channel: any Channel) async {
        try? await channel.eventLoop.submit {
            let handler = try channel.pipeline.syncOperations.handler(type: SyncUpgradeTakeover.self)
            if handler.slot.grant.withLock({ $0 }) == nil { handler.decide(false) }
        }.get()
    }

    /// Waits until the connection on `channel` is upgraded or not; true when a
    /// ``SyncWebSocketHandler`` serves it, which then keeps `value` for the channel's life.
    static func tookOver(_ channel: any Channel, keeping value: some Sendable) async -> Bool {
        let decided = try? await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Bool> in
            // Removed: it decided no (or the channel is gone).
            guard let handler = try? channel.pipeline.syncOperations.handler(type: SyncUpgradeTakeover.self),
                  let decision = handler.decision?.futureResult else {
                return channel.eventLoop.makeSucceededFuture(false)
            }
            return decision.assumeIsolated().map { tookOver in
                if tookOver { handler.kept = value }
                return tookOver
            }.nonisolated()
        }.get()
        return decided ?? false
    }
}
