import Delivery
import Foundation
import Synchronization

/// The real `URLSessionHTTPClient` with failures injected on purpose, and a log of requests.
final class FaultyHTTPClient: HTTPClient {
    enum Fault: Sendable { case none, offline, corruptBundles, serverError }

    private let base = URLSessionHTTPClient(timeout: 10)
    let fault = Mutex(Fault.none)
    let log = Mutex<[(url: String, headers: [String: String], status: Int)]>([])

    func get(_ url: URL, headers: [String: String]) async throws(HTTPClientError) -> HTTPClientResponse {
        switch fault.withLock({ $0 }) {
        case .offline:
            throw HTTPClientError("injected: no network")
        case .serverError:
            return HTTPClientResponse(status: 503, body: Data("injected".utf8))
        case .corruptBundles where url.path.hasSuffix("bundle.js"):
            var response = try await base.get(url, headers: headers)
            if !response.body.isEmpty { response.body[response.body.startIndex] ^= 0x20 }
            return response
        case .none, .corruptBundles:
            let response = try await base.get(url, headers: headers)
            log.withLock { $0.append((url.absoluteString, headers, response.status)) }
            return response
        }
    }
}
