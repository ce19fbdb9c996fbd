import Synchronization

/// The handlers ``PageTransport/onStop(_:)`` registered on an engine, called for every stop:
/// on the engine thread for stops it made, on the monitor's thread for a turn it cannot stop.
final class StopHandlers: Sendable {
    private let handlers = Mutex<[@Sendable (ScriptStop) -> Void]>([])

    func add(_ handler: @escaping @Sendable (ScriptStop) -> Void) { handlers.withLock { $0.append(handler) } }

    func notify(_ stop: ScriptStop) {
        for handler in handlers.withLock({ $0 }) { handler(stop) }
    }
}
