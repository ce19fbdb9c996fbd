import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import NIOCore
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

extension StateHubServer {
    /// Opens `location`, installs `adminToken` (hashed) when given, and serves until SIGINT or
    /// SIGTERM (graceful shutdown through swift-service-lifecycle), then closes the storage.
    /// Bootstraps `MetricsSystem` with Prometheus when `bootstrapMetrics` (once per process).
    /// `addRoutes` adds an app's own routes beside the server's. `onRunning` receives the bound port (useful with port 0), on PostgreSQL once other
    /// instances' updates reach this one (``makeApplication(router:host:port:logger:onRunning:)``).
    public static func serve(location: StorageLocation, host: String, port: Int, adminToken: String?,
                             configuration: ServerConfiguration = .init(), bootstrapMetrics: Bool = true,
                             logger: Logger, addRoutes: @Sendable (Router<BasicRequestContext>) -> Void = { _ in },
                             onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let registry = PrometheusCollectorRegistry()
        if bootstrapMetrics { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
        let storage = try await ServerStorage.open(location, logger: logger)
        var server: StateHubServer?
        do {
            let started = try StateHubServer(storage: storage, configuration: configuration, metrics: registry, logger: logger)
            server = started
            if let adminToken { try await started.installAdminToken(adminToken) }
            let router = started.makeRouter()
            addRoutes(router)
            let app = started.makeApplication(router: router, host: host, port: port, logger: logger, onRunning: onRunning)
            try await app.runService()
        } catch {
            await server?.sync.waitUntilStored()
            await storage.close()
            throw error
        }
        // The connections are closed: what the documents still hold is stored before the storage closes.
        await server?.sync.waitUntilStored()
        await storage.close()
    }
}

extension StateHubServer {
    /// An application serving `router` with the server's connection guards: the idle timeout
    /// (which also bounds an unfinished request head or a stalled body), the request body
    /// deadline, a close after an answer given before its request's body was read
    /// (`RequestBodyGuard`) and the connection cap from `configuration` (docs/server.md,
    /// "Connections").
    ///
    /// On PostgreSQL `onRunning` comes once other instances' updates reach this one (the listener's
    /// first `LISTEN` is active and caught up, docs/sync.md §2.4); the port serves from the moment it is bound.
    public func makeApplication(router: Router<BasicRequestContext>, host: String = "127.0.0.1", port: Int = 0,
                                logger: Logger,
                                onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> Application<RouterResponder<BasicRequestContext>> {
        makeApplication(router: router, host: host, port: port, logger: logger, onBound: { _ in }, onRunning: onRunning)
    }

    /// `onBound` receives the port as soon as it is bound, before `onRunning` (tests that hold the listener).
    func makeApplication(router: Router<BasicRequestContext>, host: String, port: Int, logger: Logger,
                         onBound: @escaping @Sendable (Int) async -> Void,
                         onRunning: @escaping @Sendable (Int) async -> Void)
        -> Application<RouterResponder<BasicRequestContext>> {
        let cap = configuration.maxConnections ?? ConnectionLimits.defaultMaxConnections
        let timeout = configuration.idleTimeout.components
        let idle = TimeAmount.seconds(timeout.seconds) + .nanoseconds(timeout.attoseconds / 1_000_000_000)
        let bodyTimeout = configuration.requestBodyTimeout.components
        let bodyDeadline = TimeAmount.seconds(bodyTimeout.seconds) + .nanoseconds(bodyTimeout.attoseconds / 1_000_000_000)
        logger.info("connections: at most \(cap), idle timeout \(configuration.idleTimeout), request bodies within \(configuration.requestBodyTimeout)")
        // sync: `/sync/{document}` upgrades to a WebSocket through its own router (docs/sync.md);
        // every other request, and a refused upgrade, goes to `router`.
        let sync = configuration.sync
        let postgres = storage.backend as? PostgresBackend
        let listens = postgres != nil
        let webSocketResponder = makeSyncRouter().buildResponder()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(additionalChannelHandlers: [RequestBodyGuard(deadline: bodyDeadline)], idleTimeout: idle),
            ws: .init(maxFrameSize: sync.maxMessageBytes, autoPing: .enabled(timePeriod: sync.pingInterval)))
        var app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedWebSocketUpgradeChannel(
                    inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                        configuration: channelConfiguration),
                    firstHeadTimeout: idle)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "statehub",
                                 availableConnectionsDelegate: MaximumAvailableConnections(cap, logger: logger)),
            onServerRunning: { [service = self.sync] channel in
                let bound = channel.localAddress?.port ?? port
                await onBound(bound)
                guard listens else { return await onRunning(bound) }
                // Not awaited here: the server accepts connections only after this closure returns.
                Task { if await service.listener.waitUntilReady() { await onRunning(bound) } }
            },
            // Hummingbird derives each request's logger from this one.
            logger: logger.deferringMetadata)
        app.addServices(SyncShutdownService(sync: self.sync))
        if let postgres {
            app.addServices(SyncListenerService(sync: self.sync, client: postgres.client),
                            StateListenerService(cache: cache, client: postgres.client, logger: logger))
        }
        return app
    }
}
