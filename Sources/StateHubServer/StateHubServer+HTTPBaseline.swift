import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

extension StateHubServer {
    /// The throughput baseline of `scripts/bench-server.sh`: a bare Hummingbird 2 server with one
    /// route (`GET /healthz`, the same fixed body as the server's own), no middleware, no storage,
    /// Hummingbird's plain HTTP/1 channel, on the same event loops as `statehub serve` (the caller
    /// runs `runConcurrencyOnEventLoops()` first). Every route's figure is printed as a ratio to
    /// it, so what our stack costs is measured in the same run (docs/benchmarks.md, "Server").
    /// Serves until SIGINT or SIGTERM.
    public static func serveHTTPBaseline(host: String, port: Int, logger: Logger,
                                         onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router()
        let body = ByteBuffer(string: #"{"status":"ok"}"#)
        router.get("healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: body))
        }
        let app = Application(router: router,
                              configuration: .init(address: .hostname(host, port: port), serverName: "statehub"),
                              onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
                              logger: logger)
        try await app.runService()
    }
}
