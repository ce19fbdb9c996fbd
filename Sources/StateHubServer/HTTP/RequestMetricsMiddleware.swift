import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Request metrics with the names and dimensions of Hummingbird's `MetricsMiddleware`
/// (`hb.requests`, `http.server.request.duration`, `hb.request.errors`,
/// `http.server.active_requests`), without wrapping a body of known length (docs/server.md,
/// "Public routes").
///
/// Hummingbird's middleware records after the body is written by wrapping every body in a
/// closure; a one-buffer body then loses Hummingbird's fast path (head, body and end as one
/// write) and goes out in three writes, which cost a third of a trivial request's CPU here
/// (docs/benchmarks.md, "Where the third went"). This one records when the handler returns for
/// a body whose length is known, and after the write only for a streamed body of unknown length,
/// where no fast path applies.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let cache: RequestMetricsCache

    /// - Parameter factory: where the metrics go; `nil`: `MetricsSystem.factory` (what `serve` bootstraps).
    init(factory: (any MetricsFactory)? = nil) { cache = RequestMetricsCache(factory: factory) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.activeRequests(method: request.method)
        active.increment()
        do {
            var response = try await next(request, context)
            let metrics = cache.endpoint(.init(route: context.endpointPath ?? "Unknown", method: request.method,
                                               status: response.status))
            if response.body.contentLength != nil {
                metrics.record(since: start)
                active.decrement()
            } else {
                let body = response.body
                response.body = ResponseBody { writer in
                    defer {
                        metrics.record(since: start)
                        active.decrement()
                    }
                    try await body.write(writer)
                }
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let metrics = cache.endpoint(.init(route: context.endpointPath ?? "NotFound", method: request.method,
                                               status: status))
            metrics.requests.increment()
            metrics.errors.increment()
            active.decrement()
            throw error
        }
    }
}

/// The metric objects per method and per route, method and status, made once: a lookup under a
/// lock is cheaper than the metrics factory's own.
final class RequestMetricsCache: Sendable {
    struct EndpointID: Hashable, Sendable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    struct Endpoint: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter

        init(_ id: EndpointID, factory: any MetricsFactory) {
            let dimensions = [("http.route", id.route), ("http.request.method", id.method.rawValue),
                              ("http.response.status_code", String(id.status.code))]
            requests = Counter(label: "hb.requests", dimensions: dimensions, factory: factory)
            duration = Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds,
                             factory: factory)
            errors = Counter(label: "hb.request.errors", dimensions: [
                ("http.route", id.route), ("http.request.method", id.method.rawValue), ("error.type", String(id.status.code)),
            ], factory: factory)
        }

        func record(since start: UInt64) {
            requests.increment()
            duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        }
    }

    private let factory: (any MetricsFactory)?
    private let methods = Mutex<[HTTPRequest.Method: Meter]>([:])
    private let endpoints = Mutex<[EndpointID: Endpoint]>([:])

    init(factory: (any MetricsFactory)?) { self.factory = factory }

    func activeRequests(method: HTTPRequest.Method) -> Meter {
        methods.withLock { methods in
            if let meter = methods[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)],
                              factory: factory ?? MetricsSystem.factory)
            methods[method] = meter
            return meter
        }
    }

    func endpoint(_ id: EndpointID) -> Endpoint {
        endpoints.withLock { endpoints in
            if let endpoint = endpoints[id] { return endpoint }
            let endpoint = Endpoint(id, factory: factory ?? MetricsSystem.factory)
            endpoints[id] = endpoint
            return endpoint
        }
    }
}
