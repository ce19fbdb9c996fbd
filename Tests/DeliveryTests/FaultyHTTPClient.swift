import Delivery
import Foundation
import StateHubTestSupport
import Synchronization
import Testing

/// The real `URLSessionHTTPClient` with failures injected on purpose, and a log of requests.
final class FaultyHTTPClient: HTTPClient {
    enum Fault: Sendable {
        case none, offline, corruptBundles, serverError
        /// Flips a bit in the body of every URL whose path ends with this (one asset, say).
        case corruptPath(String)
        /// Replaces this text with another in manifest bodies (a hostile or broken server).
        case rewriteManifest(String, String)
        /// Replaces this text with another in the manifest request's URL (a server that answers
        /// as if the device had asked with another `nativeVersion`, say).
        case rewriteManifestRequest(String, String)
        /// Asks this other server (a CDN, say) for every URL whose path ends with the text.
        case serveFrom(String, URL)
    }

    private let base = URLSessionHTTPClient(timeout: 10)
    let fault = Mutex(Fault.none)
    let log = Mutex<[(url: String, headers: [String: String], status: Int)]>([])

    /// Requests in flight now, and the most seen at once (file downloads; the manifest is not counted).
    let inFlight = Mutex<(now: Int, most: Int)>((0, 0))
    /// When set to N, each file download waits until N are in flight at once, once: a client
    /// that downloads fewer at a time never opens it, and the wait fails naming the count seen.
    let gate = Mutex<Int?>(nil)
    /// Told whenever `inFlight` or `gate` changes: what a held download waits on.
    private let watchers = Mutex<[AsyncStream<Void>.Continuation]>([])

    /// Tells every held download to look again.
    private func notifyWatchers() {
        for watcher in watchers.withLock({ $0 }) { watcher.yield() }
    }

    func get(_ url: URL, headers: [String: String], bodyLimit: Int) async throws(HTTPClientError) -> HTTPClientResponse {
        guard !url.path.hasSuffix("/manifest") else { return try await respond(url, headers: headers, bodyLimit: bodyLimit) }
        inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer {
            inFlight.withLock { $0.now -= 1 }
            notifyWatchers()
        }
        if let wanted = gate.withLock({ $0 }) {
            let (changes, watcher) = AsyncStream<Void>.makeStream()
            watchers.withLock { $0.append(watcher) }
            notifyWatchers()
            await waitUntil("\(wanted) downloads in flight at once", notifiedBy: changes,
                            observed: { "\(self.inFlight.withLock { $0.now }) in flight" }) {
                self.inFlight.withLock { $0.now } >= wanted || self.gate.withLock { $0 } == nil
            }
            gate.withLock { $0 = nil }
            watcher.finish()
            notifyWatchers()
        }
        return try await respond(url, headers: headers, bodyLimit: bodyLimit)
    }

    private func respond(_ url: URL, headers: [String: String], bodyLimit: Int) async throws(HTTPClientError) -> HTTPClientResponse {
        switch fault.withLock({ $0 }) {
        case .offline:
            throw HTTPClientError("injected: no network")
        case .serverError:
            return HTTPClientResponse(status: 503, body: Data("injected".utf8))
        case .corruptBundles where url.path.hasSuffix("bundle.js"):
            var response = try await base.get(url, headers: headers, bodyLimit: bodyLimit)
            if !response.body.isEmpty { response.body[response.body.startIndex] ^= 0x20 }
            return response
        case .corruptPath(let suffix) where url.path.hasSuffix(suffix):
            var response = try await base.get(url, headers: headers, bodyLimit: bodyLimit)
            if !response.body.isEmpty { response.body[response.body.startIndex] ^= 0x20 }
            return response
        case .rewriteManifest(let text, let replacement) where url.path.hasSuffix("/manifest"):
            var response = try await base.get(url, headers: headers, bodyLimit: bodyLimit)
            response.body = Data(String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: text, with: replacement).utf8)
            return response
        case .rewriteManifestRequest(let text, let replacement) where url.path.hasSuffix("/manifest"):
            guard let rewritten = URL(string: url.absoluteString.replacingOccurrences(of: text, with: replacement)) else {
                throw HTTPClientError("injected: \(replacement) makes no URL")
            }
            return try await base.get(rewritten, headers: headers, bodyLimit: bodyLimit)
        case .serveFrom(let suffix, let other) where url.path.hasSuffix(suffix):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            components?.host = other.host
            components?.port = other.port
            guard let elsewhere = components?.url else { throw HTTPClientError("injected: \(other) makes no URL") }
            return try await base.get(elsewhere, headers: headers, bodyLimit: bodyLimit)
        case .none, .corruptBundles, .corruptPath, .rewriteManifest, .rewriteManifestRequest, .serveFrom:
            let response = try await base.get(url, headers: headers, bodyLimit: bodyLimit)
            log.withLock { $0.append((url.absoluteString, headers, response.status)) }
            return response
        }
    }
}
