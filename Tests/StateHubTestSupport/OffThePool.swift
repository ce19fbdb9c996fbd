import Foundation
import Testing

/// Runs `body`, which blocks (a pipe read to its end, `waitUntilExit`, a polling sleep), on a
/// thread of its own and suspends the caller until it returns.
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core: two on CI.
/// A test that blocks one of them holds every other test's tasks behind it, and every
/// real-time window another test waits in runs out meanwhile.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// ``offThePool(_:)`` for a body that does not throw.
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// ``offThePool(_:)`` for a body that waits on a child process, against
/// ``childProcessDeadline``: nil when the deadline came first (the thread is left blocked).
func offThePoolGuarded<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
    let outcome = await race(deadline: childProcessDeadline) { () async -> WaitOutcome<T> in
        .found(await offThePool(body))
    }
    if case .found(let value) = outcome { return value }
    return nil
}

/// A value handed to the thread ``offThePool(_:)`` starts; only that thread uses it meanwhile.
package struct HandedOver<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

extension Process {
    /// `waitUntilExit()` without holding a thread of the cooperative pool. After
    /// ``childProcessDeadline`` it records a ``ChildProcessHang`` and kills the child.
    package func exitedOffThePool(sourceLocation: SourceLocation = #_sourceLocation) async {
        let process = HandedOver(self)
        if await offThePoolGuarded({ process.value.waitUntilExit() }) == nil {
            Issue.record(hang(waitingFor: "to exit"), sourceLocation: sourceLocation)
        }
    }
}

extension FileHandle {
    /// `readDataToEndOfFile()` without holding a thread of the cooperative pool. After
    /// ``childProcessDeadline`` it records an issue naming `what` and returns what it has: no bytes.
    package func readToEndOffThePool(_ what: String = "a child's output to end", sourceLocation: SourceLocation = #_sourceLocation) async -> Data {
        let handle = HandedOver(self)
        if let data = await offThePoolGuarded({ handle.value.readDataToEndOfFile() }) { return data }
        Issue.record("waited \(childProcessDeadline) for \(what)", sourceLocation: sourceLocation)
        return Data()
    }

    /// `availableData` (it waits for some) without holding a thread of the cooperative pool.
    /// After ``childProcessDeadline`` it records an issue naming `what` and returns no bytes, as
    /// at the end of the file.
    package func availableDataOffThePool(_ what: String = "output from a child", sourceLocation: SourceLocation = #_sourceLocation) async -> Data {
        let handle = HandedOver(self)
        if let data = await offThePoolGuarded({ handle.value.availableData }) { return data }
        Issue.record("waited \(childProcessDeadline) for \(what)", sourceLocation: sourceLocation)
        return Data()
    }
}
