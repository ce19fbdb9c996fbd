import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` over `URLSession` (FoundationNetworking on Linux). No caching of its own:
/// Delivery keeps what it needs on disk and revalidates with `If-None-Match` itself.
public struct URLSessionHTTPClient: HTTPClient {
    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 15) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func get(_ url: URL, headers: [String: String]) async throws(HTTPClientError) -> HTTPClientResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw HTTPClientError("not an HTTP response from \(url)") }
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            return HTTPClientResponse(status: http.statusCode, headers: fields, body: data)
        } catch let error as HTTPClientError {
            throw error
        } catch {
            throw HTTPClientError("\(url.host ?? "server"): \(error.localizedDescription)")
        }
    }
}
