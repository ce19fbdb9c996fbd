import Hummingbird
import Logging

/// Logs each request at `level` as Hummingbird's `LogRequestsMiddleware` does (`Request`,
/// `hb.request.method`, `hb.request.path`), with the path's tokens hidden (``LogRedaction/uri(_:)``)
/// and no headers.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    init(_ level: Logger.Level) { self.level = level }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.log(level: level, "Request", metadata: [
            "hb.request.path": .string(LogRedaction.uri(request.uri)),
            "hb.request.method": .string(request.method.rawValue),
        ])
        return try await next(request, context)
    }
}
