import Foundation
import StyleTokens
import Synchronization

/// A `ThemeSource` over a StateHub server: `GET /themes/current?nativeVersion=<major>.0.0`
/// with the `ETag` it saw last in `If-None-Match`; a `304` returns the bytes it kept. At most
/// ``themeLimit`` bytes of a theme are read.
public final class HTTPThemeSource: ThemeSource {
    /// The most bytes of a theme read: 1 MiB, the server's own cap on a theme upload
    /// (`ServerConfiguration.maxThemeBytes`). A longer answer is `ThemeSourceError.unreadable`.
    public static let themeLimit = 1 << 20

    private struct Kept: Sendable {
        var entityTag: String
        var body: Data
    }

    private let server: URL
    private let http: any HTTPClient
    private let kept = Mutex<[Int: Kept]>([:])

    public init(server: URL, http: any HTTPClient = URLSessionHTTPClient()) {
        self.server = server
        self.http = http
    }

    /// The entity tag kept for `majorVersion`, if any (what the next request revalidates).
    public func entityTag(forMajorVersion majorVersion: Int) -> String? { kept.withLock { $0[majorVersion]?.entityTag } }

    public func fetchTheme(forMajorVersion majorVersion: Int) async throws(ThemeSourceError) -> Data {
        var components = URLComponents(url: server.appendingPathComponent("themes/current"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "nativeVersion", value: "\(majorVersion).0.0")]
        guard let url = components?.url else { throw .transport(reason: "cannot form the theme URL from \(server)") }
        let previous = kept.withLock { $0[majorVersion] }
        var headers: [String: String] = ["Accept": "application/json"]
        if let previous { headers["If-None-Match"] = previous.entityTag }
        let response: HTTPClientResponse
        do {
            response = try await http.get(url, headers: headers, bodyLimit: Self.themeLimit)
        } catch {
            throw .transport(reason: error.description)
        }
        switch response.status {
        case 200:
            guard response.body.count <= Self.themeLimit else {
                throw .unreadable(location: url.absoluteString, reason: "more than \(Self.themeLimit) bytes; reading stopped there")
            }
            if let tag = response.headers["etag"] {
                kept.withLock { $0[majorVersion] = Kept(entityTag: tag, body: response.body) }
            }
            return response.body
        case 304:
            guard let previous else { throw .unreadable(location: url.absoluteString, reason: "304 without a kept theme") }
            return previous.body
        case 404:
            throw .notFound(location: url.absoluteString)
        default:
            throw .unreadable(location: url.absoluteString, reason: "status \(response.status)")
        }
    }
}
