import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

extension StateHubServer {
    /// The throughput baseline of `scripts/bench-server.sh`: a bare Hummingbird 2 server with one
    /// route (`GET /healthz`, the same fixed body as the server's own), no middleware, no storage,
    /// Hummingbird's plain HTTP/1 channel, on the same event loops as `statehub serve` (the caller
    /// runs `runConcurrencyOnEventLoops()` first). Every route's figure is printed as a ratio to
    /// it, so what our stack costs is measured in the same run (docs/benchmarks.md, "Server").
    ///
    /// `parts` adds pieces of `serve`'s stack one at a time (``HTTPBaselineParts``); those that
    /// need a server (the WebSocket upgrade's sync router, the whole router) open `storage`.
    /// Serves until SIGINT or SIGTERM.
    public static func serveHTTPBaseline(host: String, port: Int, parts: HTTPBaselineParts = [],
                                         storage location: StorageLocation? = nil, logger: Logger,
                                         onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let address = BindAddress.hostname(host, port: port)
        let running: @Sendable (any Channel) async -> Void = { channel in await onRunning(channel.localAddress?.port ?? port) }
        guard !parts.isEmpty else {
            let app = Application(router: baselineRouter(middleware: []),
                                  configuration: .init(address: address, serverName: "statehub"),
                                  onServerRunning: running, logger: logger)
            try await app.runService()
            return
        }
        let registry = PrometheusCollectorRegistry()
        if parts.contains(.metrics) { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
        let needsServer = !parts.isDisjoint(with: [.webSocketUpgrade, .headGuards, .serverRouter])
        var server: StateHubServer?
        if needsServer {
            guard let location else { throw BaselineStorageMissing() }
            server = try StateHubServer(storage: try await ServerStorage.open(location, logger: logger),
                                        metrics: registry, logger: logger)
        }
        let configuration = ServerConfiguration()
        let router = if let server, parts.contains(.serverRouter) { server.makeRouter() } else {
            baselineRouter(middleware: parts)
        }
        let timeout = configuration.idleTimeout.components
        let idle = TimeAmount.seconds(timeout.seconds) + .nanoseconds(timeout.attoseconds / 1_000_000_000)
        let http1 = parts.contains(.bodyGuard)
            ? HTTP1Channel.Configuration(additionalChannelHandlers: [RequestBodyGuard(deadline: .seconds(60))], idleTimeout: idle)
            : HTTP1Channel.Configuration()
        let builder: HTTPServerBuilder
        if let server, !parts.isDisjoint(with: [.webSocketUpgrade, .headGuards]) {
            let webSocketResponder = server.makeSyncRouter().buildResponder()
            let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
                http1: http1, ws: .init(maxFrameSize: configuration.sync.maxMessageBytes,
                                        autoPing: .enabled(timePeriod: configuration.sync.pingInterval)))
            let guarded = parts.contains(.headGuards)
            builder = HTTPServerBuilder { responder in
                let inner = HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder,
                                                         configuration: channelConfiguration)
                return guarded ? GuardedWebSocketUpgradeChannel(inner: inner, firstHeadTimeout: idle) : inner
            }
        } else {
            builder = HTTPServerBuilder { responder in HTTP1Channel(responder: responder, configuration: http1) }
        }
        let cap: (any AvailableConnectionsDelegate)? = parts.contains(.connectionCap)
            ? MaximumAvailableConnections(ConnectionLimits.defaultMaxConnections, logger: logger) : nil
        let app = Application(router: router, server: builder,
                              configuration: .init(address: address, serverName: "statehub",
                                                   availableConnectionsDelegate: cap),
                              onServerRunning: running,
                              logger: parts.contains(.deferringLogger) ? logger.deferringMetadata : logger)
        try await app.runService()
        await server?.storage.close()
    }

    /// One route, `GET /healthz`, behind the server's middleware named in `parts` (all three
    /// for ``HTTPBaselineParts/middleware``, with Hummingbird's metrics middleware in place of ours
    /// for ``HTTPBaselineParts/hummingbirdMetrics``).
    private static func baselineRouter(middleware parts: HTTPBaselineParts) -> Router<BasicRequestContext> {
        let router = Router()
        let all = parts.contains(.middleware)
        if all || parts.contains(.metricsMiddleware) {
            if parts.contains(.hummingbirdMetrics) {
                router.add(middleware: MetricsMiddleware())
            } else {
                router.add(middleware: RequestMetricsMiddleware())
            }
        }
        if all || parts.contains(.logMiddleware) { router.add(middleware: RequestLogMiddleware(.debug)) }
        if all || parts.contains(.corsMiddleware) { router.add(middleware: AdminCORSMiddleware(origin: nil)) }
        let body = ByteBuffer(string: #"{"status":"ok"}"#)
        router.get("healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: body))
        }
        return router
    }
}

/// The baseline's parts that need a server were asked for without a data folder.
struct BaselineStorageMissing: Error, CustomStringConvertible {
    var description: String { "these baseline parts need a server: give --data DIR" }
}
