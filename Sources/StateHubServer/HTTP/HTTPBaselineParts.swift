/// Parts of `statehub serve`'s HTTP stack that the throughput baseline
/// (``StateHubServer/serveHTTPBaseline(host:port:parts:storage:logger:onRunning:)``) can add one
/// at a time, so `scripts/bench-server.sh variants` measures what each costs against the bare
/// Hummingbird server in the same run (docs/benchmarks.md, "Server"). An experiment's switch
/// board, not a configuration: `serve` always has all of them.
public struct HTTPBaselineParts: OptionSet, Sendable, CaseIterable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// hummingbird-websocket's `HTTP1WebSocketUpgradeChannel` with the server's sync router, in
    /// place of Hummingbird's `HTTP1Channel`.
    public static let webSocketUpgrade = HTTPBaselineParts(rawValue: 1 << 0)
    /// The first-request guards around it (`UpgradeRefusalWriter`, `FirstRequestHeadTimeout`,
    /// `RequestHeadErrorWriter`); implies ``webSocketUpgrade``.
    public static let headGuards = HTTPBaselineParts(rawValue: 1 << 1)
    /// `RequestBodyGuard` and the idle timeout in the HTTP pipeline.
    public static let bodyGuard = HTTPBaselineParts(rawValue: 1 << 2)
    /// Hummingbird's `MaximumAvailableConnections` with the server's cap.
    public static let connectionCap = HTTPBaselineParts(rawValue: 1 << 3)
    /// The server's middleware (metrics, request logging, admin CORS) before the one route.
    public static let middleware = HTTPBaselineParts(rawValue: 1 << 4)
    /// `MetricsSystem` bootstrapped with Prometheus (else swift-metrics' no-op backend).
    public static let metrics = HTTPBaselineParts(rawValue: 1 << 5)
    /// The application's logger wrapped in `RequestLogHandler`, as `serve` does.
    public static let deferringLogger = HTTPBaselineParts(rawValue: 1 << 6)
    /// The server's whole router (every route and its middleware; `/healthz` is one of them) in
    /// place of the one-route router; replaces ``middleware``.
    public static let serverRouter = HTTPBaselineParts(rawValue: 1 << 7)

    /// With ``middleware``: Hummingbird's `MetricsMiddleware` in place of the server's
    /// `RequestMetricsMiddleware` (what `serve` had before; it wraps every body).
    public static let hummingbirdMetrics = HTTPBaselineParts(rawValue: 1 << 8)

    /// One of the server's middleware alone: request metrics, request logging, admin CORS.
    public static let metricsMiddleware = HTTPBaselineParts(rawValue: 1 << 9)
    public static let logMiddleware = HTTPBaselineParts(rawValue: 1 << 10)
    public static let corsMiddleware = HTTPBaselineParts(rawValue: 1 << 11)

    public static let allCases: [HTTPBaselineParts] = [
        .webSocketUpgrade, .headGuards, .bodyGuard, .connectionCap, .middleware, .metrics, .deferringLogger, .serverRouter,
        .hummingbirdMetrics, .metricsMiddleware, .logMiddleware, .corsMiddleware,
    ]

    /// The name `statehub bench http-baseline --parts` takes.
    public var name: String {
        switch self {
        case .webSocketUpgrade: "ws"
        case .headGuards: "head-guards"
        case .bodyGuard: "body-guard"
        case .connectionCap: "cap"
        case .middleware: "middleware"
        case .metrics: "metrics"
        case .deferringLogger: "logger"
        case .serverRouter: "router"
        case .hummingbirdMetrics: "hb-metrics"
        case .metricsMiddleware: "mw-metrics"
        case .logMiddleware: "mw-log"
        case .corsMiddleware: "mw-cors"
        default: Self.allCases.filter { contains($0) }.map(\.name).joined(separator: ",")
        }
    }

    /// Parts from comma-separated names (`ws,body-guard`), or the first name that is unknown.
    public static func parse(_ text: String) -> Result<HTTPBaselineParts, UnknownName> {
        var parts: HTTPBaselineParts = []
        for name in text.split(separator: ",").map(String.init) {
            guard let part = allCases.first(where: { $0.name == name }) else { return .failure(UnknownName(name: name)) }
            parts.insert(part)
        }
        return .success(parts)
    }

    /// A part name `parse` does not know.
    public struct UnknownName: Error, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown part \"\(name)\" (known: \(HTTPBaselineParts.allCases.map(\.name).joined(separator: ", ")))"
        }
    }
}
