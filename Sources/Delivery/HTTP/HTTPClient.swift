import Foundation

/// The little HTTP Delivery needs: a GET with headers and a bound on the body. A protocol so
/// tests inject failures (no network, a server error, altered bytes) around the real client.
public protocol HTTPClient: Sendable {
    /// Any status is a response; only a transport failure throws. At most `bodyLimit` + 1 bytes
    /// of the body are kept: a longer body arrives cut to exactly `bodyLimit` + 1 bytes and the
    /// request is cancelled there, so a caller tells "more than `bodyLimit`" by the count alone.
    func get(_ url: URL, headers: [String: String], bodyLimit: Int) async throws(HTTPClientError) -> HTTPClientResponse
}
