import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` over `URLSession` (FoundationNetworking on Linux). No caching of its own:
/// Delivery keeps what it needs on disk and revalidates with `If-None-Match` itself. Bodies
/// arrive through a data delegate (`URLSessionBodyReader`) that answers and cancels the request
/// once `bodyLimit` + 1 bytes are in, whatever the server sends or its `Content-Length` says;
/// bytes that FoundationNetworking still hands over before the cancellation lands are dropped.
public struct URLSessionHTTPClient: HTTPClient {
    /// Owns the session, whose delegate it holds strongly until the session is invalidated.
    private final class Session: Sendable {
        let session: URLSession
        let reader = URLSessionBodyReader()

        init(timeout: TimeInterval) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.timeoutIntervalForRequest = timeout
            session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        }

        deinit { session.finishTasksAndInvalidate() }
    }

    private let owner: Session
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 15) {
        owner = Session(timeout: timeout)
        self.timeout = timeout
    }

    public func get(_ url: URL, headers: [String: String], bodyLimit: Int) async throws(HTTPClientError) -> HTTPClientResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = owner.session.dataTask(with: request)
        let (kept, overflow) = max(0, bodyLimit).addingReportingOverflow(1)
        let reader = owner.reader
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                reader.start(task, keeping: overflow ? .max : kept, continuation: continuation)
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            task.cancel()
        }
        switch outcome {
        case .success(let answer):
            var fields: [String: String] = [:]
            for (name, value) in answer.response.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
            }
            return HTTPClientResponse(status: answer.response.statusCode, headers: fields, body: answer.body)
        case .failure(let reason):
            throw HTTPClientError("\(url.host ?? "server"): \(reason)")
        }
    }
}
