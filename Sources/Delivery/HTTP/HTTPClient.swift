import Foundation

/// The little HTTP Delivery needs: a GET with headers. A protocol so tests inject failures
/// (no network, a server error, altered bytes) around the real client.
public protocol HTTPClient: Sendable {
    /// Any status is a response; only a transport failure throws.
    func get(_ url: URL, headers: [String: String]) async throws(HTTPClientError) -> HTTPClientResponse
}

/// A response, with header names lowercased.
public struct HTTPClientResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The request never got an answer.
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
