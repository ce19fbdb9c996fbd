import Hummingbird

/// Paths and methods the routes do not have get the JSON error body every other error has
/// (docs/server.md, "Paths and methods"): a path with a trailing or a repeated slash is `404
/// not-found` on every route but `/sync/…` (never normalised: one resource, one URL); a path with routes for
/// other methods only is `405 method-not-allowed` with `Allow`; any other unknown path is `404
/// not-found`.
struct RouteShapeMiddleware<Context: RequestContext>: RouterMiddleware {
    let methods: RouteMethods<Context>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // `/sync/…` refuses these itself, for the upgrade and a plain GET alike: `400 invalid-name` (docs/sync.md §1.1).
        if path.contains("//") || (path.count > 1 && path.hasSuffix("/")), !path.hasPrefix("/sync/") {
            throw ServerError.notFound("not-found", "no route at this path: trailing and repeated slashes are not removed")
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && (context.endpointPath ?? "NotFound") == "NotFound" {
            // Hummingbird's answer when no route matched: no handler threw it.
            let allowed = await methods.allowed(at: path, context: context)
            guard !allowed.isEmpty else { throw ServerError.notFound("not-found", "no route at this path") }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var response = ServerError(.methodNotAllowed, "method-not-allowed",
                                       "\(request.method.rawValue) is not allowed here; allowed: \(list)").response
            response.headers[.allow] = list
            return response
        }
    }
}
