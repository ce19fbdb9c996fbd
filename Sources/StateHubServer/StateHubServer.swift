import Hummingbird
import Logging
import Prometheus

/// The micro-app server (docs/server.md): manifests, bundles, the loader page, themes, the
/// admin API, `/openapi.yaml` and `/metrics`, over one `ServerStorage`.
///
/// A library: `addRoutes(to:)` puts its routes on an app's own router beside the app's routes;
/// `makeRouter()` builds a router with nothing else.
public final class StateHubServer: Sendable {
    public let storage: ServerStorage
    public let configuration: ServerConfiguration
    let content: ContentCache
    let cache: SnapshotCache
    /// ``ServerConfiguration/clock``, read as durations since this server was made.
    let clock: ServerClock
    let loaderPage: LoaderPage
    let metrics: PrometheusCollectorRegistry
    let logger: Logger
    /// The sync endpoint (docs/sync.md).
    public let sync: SyncService
    /// Where the console's trace timelines are built (off the event loops, a bounded number at once).
    let traceWorkers: TraceTimelineWorkers

    /// - Parameter metrics: the registry `/metrics` shows; bootstrap `MetricsSystem` with a
    ///   `PrometheusMetricsFactory` over the same registry to see request metrics there.
    public init(storage: ServerStorage, configuration: ServerConfiguration = .init(),
                metrics: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                logger: Logger = Logger(label: "statehub.server")) throws {
        self.storage = storage
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
        content = ContentCache(storage: storage, limit: configuration.cacheBytes)
        clock = ServerClock(configuration.clock)
        cache = SnapshotCache(mode: storage.isShared ? .shared : .local, storage: storage, content: content, clock: clock)
        loaderPage = try LoaderPage()
        sync = SyncService(storage: storage, configuration: configuration.sync, clock: clock, logger: logger)
        traceWorkers = TraceTimelineWorkers(limit: configuration.maxConcurrentTraceTimelines)
    }

    /// Stores the hash of `token` as an admin token unless it is there, or was revoked: a token
    /// deleted with `DELETE /admin/tokens/{id}` is never installed again (the first token is
    /// installed at every start, so it would otherwise come back). Never logs the token.
    ///
    /// Instances started at once on one database take turns (docs/server.md, "Storage").
    ///
    /// - Returns: `false` when the token was revoked and is not installed (a warning is logged).
    /// - Throws: `StorageError` naming the step and the database's own error.
    @discardableResult
    public func installAdminToken(_ token: String, label: String = "initial") async throws -> Bool {
        let installation: ServerStorage.TokenInstallation
        do {
            installation = try await storage.installToken(hash: AdminToken.hash(token), label: label)
        } catch {
            throw StorageError("installing the admin token given at start failed: \(String(reflecting: error))")
        }
        switch installation {
        case .installed, .alreadyInstalled:
            return true
        case .revoked:
            logger.warning("the admin token given at start (STATEHUB_ADMIN_TOKEN or --admin-token-file) was revoked with DELETE /admin/tokens/{id}; it stays revoked and is not installed again: give a new one, or sign in with another token")
            return false
        }
    }

    /// A router with the server's routes and middleware (metrics, request logging, admin CORS);
    /// `HEAD` answers every `GET` route without the body.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        addRoutes(to: router)
        return router
    }

    /// Adds middleware (for routes added after this call) and every route of the server.
    ///
    /// A wrong method on one of these routes is `405` with `Allow`; on an app's own routes added
    /// afterwards it is `404` (the methods are looked up among the server's routes only).
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: RequestLogMiddleware(.debug))
        router.add(middleware: AdminCORSMiddleware(origin: configuration.adminOrigin))
        let methods = RouteMethods<Context>(options: .autoGenerateHeadEndpoints) { probe in addEndpoints(to: probe) }
        router.add(middleware: RouteShapeMiddleware(methods: methods))
        addEndpoints(to: router)
    }

    /// The server's routes without its middleware.
    private func addEndpoints<Context: RequestContext>(to router: Router<Context>) {
        addPublicRoutes(to: router)
        addSyncRoutes(to: router)
        let admin = router.group("admin").add(middleware: AdminAuthMiddleware(storage: storage))
        addAdminRoutes(to: admin)
        addSyncAdminRoutes(to: admin)
        addConsoleRoutes(to: router, admin: admin)
    }
}
