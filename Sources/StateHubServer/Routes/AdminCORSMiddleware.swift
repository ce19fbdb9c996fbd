import Hummingbird

/// CORS for `/admin/…` and only for the one configured origin (docs/server.md): a preflight
/// from it is answered here; its other requests get `Access-Control-Allow-Origin`. Nothing
/// else gets CORS headers.
struct AdminCORSMiddleware<Context: RequestContext>: RouterMiddleware {
    let origin: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin, request.uri.path.hasPrefix("/admin/"), request.headers[.origin] == origin else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: origin,
                .accessControlAllowMethods: "GET, PUT, POST, DELETE",
                .accessControlAllowHeaders: "Authorization, Content-Type, If-Match",
                .accessControlMaxAge: "600",
                .vary: "Origin",
            ])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.accessControlAllowOrigin] = origin
        // The release's tag, which a save sends back as `If-Match`.
        response.headers[.accessControlExposeHeaders] = "ETag"
        response.headers[.vary] = "Origin"
        return response
    }
}
