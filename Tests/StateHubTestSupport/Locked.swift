import Synchronization

/// A value behind a lock, shareable between tasks (a `Mutex` that escaping closures can capture).
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    package init(_ value: Value) { mutex = Mutex(value) }
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}
