import Synchronization

/// The step a dispatch was admitted as, set under the hub's lock, read after the dispatch.
final class StepSlot: Sendable {
    private let value = Mutex<TransactionStep?>(nil)
    func set(_ step: TransactionStep) { value.withLock { $0 = step } }
    var step: TransactionStep? { value.withLock { $0 } }
}
