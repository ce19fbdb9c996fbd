import Hummingbird
import NIOCore

/// Which methods a path has routes for, answered by a second router holding the same routes
/// behind ``RouteMethodsProbeMiddleware``, which answers before any handler runs: a route that
/// matches says so and nothing else happens. Used to answer `405` with `Allow` (docs/server.md,
/// "Paths and methods").
struct RouteMethods<Context: RequestContext>: Sendable {
    /// The methods a route can have, in the order `Allow` lists them.
    static var candidates: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete, .options] }

    private let probe: RouterResponder<Context>

    /// - Parameter addRoutes: adds the routes to the router given, as for the real one.
    init(options: RouterOptions, addRoutes: (Router<Context>) -> Void) {
        let router = Router(context: Context.self, options: options)
        router.add(middleware: RouteMethodsProbeMiddleware())
        addRoutes(router)
        probe = router.buildResponder()
    }

    /// The methods with a route at `path`; empty when none.
    func allowed(at path: String, context: Context) async -> [HTTPRequest.Method] {
        var allowed: [HTTPRequest.Method] = []
        for method in Self.candidates {
            let request = Request(head: HTTPRequest(method: method, scheme: nil, authority: nil, path: path),
                                  body: RequestBody(buffer: ByteBuffer()))
            var probeContext = context
            // A box of its own: the probe must not change the real request's route (metrics read it).
            probeContext.coreContext.endpointPath = EndpointPath()
            if let answer = try? await probe.respond(to: request, context: probeContext),
               answer.status == RouteMethodsProbeMiddleware<Context>.matched {
                allowed.append(method)
            }
        }
        return allowed
    }
}

/// The probe router's first middleware: the router sets the route's path before its middleware
/// runs when a route matched, and not when none did; either way no handler runs.
struct RouteMethodsProbeMiddleware<Context: RequestContext>: RouterMiddleware {
    static var matched: HTTPResponse.Status { .noContent }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        Response(status: context.endpointPath == nil ? .notFound : Self.matched)
    }
}
