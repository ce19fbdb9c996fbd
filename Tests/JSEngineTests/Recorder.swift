import Foundation
import Synchronization

/// Collects values handed over from engine callbacks (which run on the engine thread).
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    var values: [Value] { storage.withLock { $0 } }

    var count: Int { storage.withLock { $0.count } }

    /// Polls until `count` values arrived or `timeout` passed; returns whether they did.
    func wait(forCount count: Int, timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while self.count < count {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}
