import Hummingbird
import HummingbirdTesting
import NIOCore
import Prometheus
@testable import StateHubServer
import Testing

/// The server's request metrics (docs/server.md, "Public routes"): Hummingbird's metric names and
/// labels, recorded into a real Prometheus registry, for a one-buffer answer (recorded when the
/// handler returns, so the answer keeps Hummingbird's one-write path), a streamed answer of
/// unknown length (recorded after its body is written) and an error.
@Suite(.tags(.unit)) struct RequestMetricsMiddlewareTests {
    @Test func requestsDurationsAndErrorsPerRouteAndStatus() async throws {
        let registry = PrometheusCollectorRegistry()
        let router = Router()
        router.add(middleware: RequestMetricsMiddleware(factory: PrometheusMetricsFactory(registry: registry)))
        router.get("one") { _, _ in Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "one"))) }
        router.get("streamed") { _, _ in
            Response(status: .ok, body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "a"))
                try await writer.write(ByteBuffer(string: "b"))
                try await writer.finish(nil)
            })
        }
        router.get("fails") { _, _ -> Response in throw HTTPError(.conflict) }
        try await Application(router: router).test(.router) { client in
            let first = try await client.execute(uri: "/one", method: .get)
            #expect(first.body == ByteBuffer(string: "one"))
            let second = try await client.execute(uri: "/one", method: .get)
            #expect(second.status == .ok)
            let streamed = try await client.execute(uri: "/streamed", method: .get)
            #expect(streamed.body == ByteBuffer(string: "ab"))
            let fails = try await client.execute(uri: "/fails", method: .get)
            #expect(fails.status == .conflict)
        }
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        let lines = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
        let one = #"http_route="/one",http_request_method="GET",http_response_status_code="200""#
        let streamed = #"http_route="/streamed",http_request_method="GET",http_response_status_code="200""#
        let fails = #"http_route="/fails",http_request_method="GET",http_response_status_code="409""#
        #expect(lines.contains("hb_requests{\(one)} 2"), "\(lines.sorted())")
        #expect(lines.contains("http_server_request_duration_count{\(one)} 2"), "\(lines.sorted())")
        #expect(lines.contains("hb_requests{\(streamed)} 1"), "\(lines.sorted())")
        #expect(lines.contains("http_server_request_duration_count{\(streamed)} 1"), "\(lines.sorted())")
        #expect(lines.contains("hb_requests{\(fails)} 1"), "\(lines.sorted())")
        #expect(lines.contains(#"hb_request_errors{http_route="/fails",http_request_method="GET",error_type="409"} 1"#),
                "\(lines.sorted())")
        #expect(lines.contains(#"http_server_active_requests{http_request_method="GET"} 0.0"#), "\(lines.sorted())")
    }
}
