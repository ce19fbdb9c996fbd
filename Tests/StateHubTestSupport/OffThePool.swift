import Foundation

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

/// A value handed to the thread ``offThePool(_:)`` starts; only that thread uses it meanwhile.
package struct HandedOver<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}

extension Process {
    /// `waitUntilExit()` without holding a thread of the cooperative pool.
    package func exitedOffThePool() async {
        let process = HandedOver(self)
        await offThePool { process.value.waitUntilExit() }
    }
}

extension FileHandle {
    /// `readDataToEndOfFile()` without holding a thread of the cooperative pool.
    package func readToEndOffThePool() async -> Data {
        let handle = HandedOver(self)
        return await offThePool { handle.value.readDataToEndOfFile() }
    }

    /// `availableData` (it waits for some) without holding a thread of the cooperative pool.
    package func availableDataOffThePool() async -> Data {
        let handle = HandedOver(self)
        return await offThePool { handle.value.availableData }
    }
}
