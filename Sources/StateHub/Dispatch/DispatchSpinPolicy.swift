import Synchronization

/// Whether a dispatch's caller spins for its answer before parking (`DispatchReply`), learnt
/// from the answers before it: a spin that ends without the answer was wasted work, so each
/// miss in a row makes the next few callers park at once (1, 3, 7… up to 63 of them), and
/// one answer caught while spinning turns spinning back on. A page that answers slowly (a
/// long action, a loaded machine) thus costs at most one spin in 64 dispatches.
final class DispatchSpinPolicy: Sendable {
    private struct Record {
        /// Dispatches still to park at once.
        var skip = 0
        /// Spins in a row that ended without their answer.
        var misses = 0
    }

    private let record = Mutex(Record())

    /// The spin for the next dispatch: `configured`, or `.zero` while recent spins missed.
    func budget(_ configured: Duration) -> Duration {
        guard configured > .zero else { return .zero }
        return record.withLock { record in
            guard record.skip == 0 else {
                record.skip -= 1
                return .zero
            }
            return configured
        }
    }

    /// What a spin came to.
    func record(answeredWhileSpinning caught: Bool) {
        record.withLock { record in
            if caught {
                record.misses = 0
            } else {
                record.misses = min(record.misses + 1, 6)
                record.skip = (1 << record.misses) - 1
            }
        }
    }
}
