import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The data delegate of ``URLSessionHTTPClient``'s session: collects each task's body up to the
/// bytes its caller keeps, then answers and cancels the task, so no more than that is ever held.
final class URLSessionBodyReader: NSObject, URLSessionDataDelegate, Sendable {
    /// A response and the first bytes of its body, or why there is none.
    typealias Outcome = Result<(response: HTTPURLResponse, body: Data), Failure>

    struct Failure: Error {
        var reason: String
    }

    private struct Reading {
        var kept: Int
        var body = Data()
        var continuation: CheckedContinuation<Outcome, Never>
    }

    /// Tasks not answered yet, by `taskIdentifier`.
    private let readings = Mutex<[Int: Reading]>([:])

    /// Answers `continuation` once `task` completes or `kept` bytes of its body are in.
    func start(_ task: URLSessionTask, keeping kept: Int, continuation: CheckedContinuation<Outcome, Never>) {
        readings.withLock { $0[task.taskIdentifier] = Reading(kept: kept, continuation: continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let full: Reading? = readings.withLock { readings in
            guard var reading = readings[dataTask.taskIdentifier] else { return nil }
            reading.body.append(data.prefix(reading.kept - reading.body.count))
            guard reading.body.count >= reading.kept else {
                readings[dataTask.taskIdentifier] = reading
                return nil
            }
            readings[dataTask.taskIdentifier] = nil
            return reading
        }
        guard let full else { return }
        dataTask.cancel()
        full.continuation.resume(returning: Self.outcome(dataTask, full.body))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let reading = readings.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            reading.continuation.resume(returning: .failure(Failure(reason: error.localizedDescription)))
        } else {
            reading.continuation.resume(returning: Self.outcome(task, reading.body))
        }
    }

    private static func outcome(_ task: URLSessionTask, _ body: Data) -> Outcome {
        guard let response = task.response as? HTTPURLResponse else { return .failure(Failure(reason: "not an HTTP response")) }
        return .success((response, body))
    }
}
