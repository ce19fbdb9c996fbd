import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle

extension StateHubServer {
    /// Opens `location`, installs `adminToken` (hashed) when given, and serves until SIGINT or
    /// SIGTERM (graceful shutdown through swift-service-lifecycle), then closes the storage.
    /// Bootstraps `MetricsSystem` with Prometheus when `bootstrapMetrics` (once per process).
    /// `addRoutes` adds an app's own routes beside the server's. `onRunning` receives the bound port (useful with port 0).
    public static func serve(location: StorageLocation, host: String, port: Int, adminToken: String?,
                             configuration: ServerConfiguration = .init(), bootstrapMetrics: Bool = true,
                             logger: Logger, addRoutes: @Sendable (Router<BasicRequestContext>) -> Void = { _ in },
                             onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let registry = PrometheusCollectorRegistry()
        if bootstrapMetrics { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
        let storage = try await ServerStorage.open(location, logger: logger)
        do {
            let server = try StateHubServer(storage: storage, configuration: configuration, metrics: registry, logger: logger)
            if let adminToken { try await server.installAdminToken(adminToken) }
            let router = server.makeRouter()
            addRoutes(router)
            let app = Application(
                router: router,
                configuration: .init(address: .hostname(host, port: port), serverName: "statehub"),
                onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
                logger: logger)
            try await app.runService()
        } catch {
            await storage.close()
            throw error
        }
        await storage.close()
    }
}
