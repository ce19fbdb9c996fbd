import Logging

/// The server's log handler for request loggers: keeps metadata set on the logger (Hummingbird
/// sets `hb.request.id` on every request) as a dictionary and hands it to the wrapped handler
/// only when a line is written. swift-log's `StreamLogHandler` formats its metadata on every set,
/// which cost about 5% of a manifest request that logs nothing (docs/benchmarks.md, "Server").
/// Every line it writes passes ``LogRedaction`` first: no token reaches the log, whoever wrote
/// the line (docs/server.md, "Logging").
struct RequestLogHandler: LogHandler {
    private var wrapped: any LogHandler
    var metadata: Logger.Metadata = [:]

    init(wrapping wrapped: any LogHandler) { self.wrapped = wrapped }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level == .error, event.message.description == Self.failedUpgradeNegotiation {
            event.level = .debug
            guard wrapped.logLevel <= .debug else { return }
        }
        if !metadata.isEmpty { event.metadata = metadata.merging(event.metadata ?? [:]) { $1 } }
        wrapped.log(event: LogRedaction.event(event))
    }

    /// hummingbird-websocket's line for a connection whose first request failed before it could
    /// be upgraded or served: a malformed head (answered and closed by `RequestHeadErrorWriter`),
    /// or a client gone mid-head. Written at `error` for each such connection, so any client could
    /// fill the log: it is written at `debug` (docs/server.md, "Connections").
    static let failedUpgradeNegotiation = "Error handling upgrade result"
}

extension Logger {
    /// This logger with its handler wrapped in ``RequestLogHandler``.
    var deferringMetadata: Logger {
        var logger = self
        logger.handler = RequestLogHandler(wrapping: handler)
        return logger
    }
}
