import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One request that carries the admin token: it goes to the URL it names and nowhere else.
/// A redirect is never followed (a 3xx comes back as the answer, for the caller to report), so
/// the token cannot be re-sent to another origin, which the `--server` checks never saw.
final class AdminRequest: NSObject, URLSessionDataDelegate, Sendable {
    /// The answer: its status, its `Location` (for a redirect) and the first bytes of its body.
    struct Answer: Sendable {
        var status: Int
        var location: String?
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The most of an answer's body kept: enough for any error the server writes.
    static let keptBodyBytes = 64 * 1024

    private struct Exchange {
        var body = Data()
        var continuation: CheckedContinuation<Answer, any Error>?
    }

    private let exchange = Mutex(Exchange())

    /// Sends `request` once and returns the server's answer, redirects included.
    static func send(_ request: URLRequest) async throws -> Answer {
        let delegate = AdminRequest()
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.exchange.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange.withLock { $0.body.append(data.prefix(Self.keptBodyBytes - $0.body.count)) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, body) = exchange.withLock { exchange in
            defer { exchange.continuation = nil }
            return (exchange.continuation, exchange.body)
        }
        guard let continuation else { return }
        if let error { return continuation.resume(throwing: error) }
        guard let response = task.response as? HTTPURLResponse else {
            return continuation.resume(throwing: Failure(description: "the answer is not an HTTP response"))
        }
        let location = response.allHeaderFields.first { ($0.key as? String)?.lowercased() == "location" }?.value as? String
        continuation.resume(returning: Answer(status: response.statusCode, location: location, body: body))
    }
}
