import Foundation

/// The little HTTP Delivery needs: a GET with headers. A protocol so tests inject failures
/// (no network, a server error, altered bytes) around the real client.
public protocol HTTPClient: Sendable {
    /// Any status is a response; only a transport failure throws.
    func get(_ url: URL, headers: [String: String]) async throws(HTTPClientError) -> HTTPClientResponse
}
