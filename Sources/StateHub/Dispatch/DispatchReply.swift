import Foundation
import JSEngine
import Synchronization

/// Where the answer to one dispatch goes: to its caller spinning for it a moment on its own
/// thread, or to the caller's continuation once it has parked (docs/hub.md, "Dispatch: how a
/// caller waits").
///
/// A caller on the global pool that parks at once pays two thread wake-ups per round trip
/// (the page's and its own, 20–40 µs each on the project's VM); spinning briefly for an answer
/// that is already on its way avoids its own. The answer is delivered exactly once, whichever
/// side comes first: `resume` stores it for a spinning caller or resumes the parked one.
final class DispatchReply: Sendable {
    private struct Slot {
        /// The answer, until its caller takes it.
        var result: Result<JSONValue, any Error>?
        /// The caller, once it has parked.
        var continuation: CheckedContinuation<Result<JSONValue, any Error>, Never>?
        /// The answer went to its caller: later answers are ignored.
        var delivered = false
    }

    private let slot = Mutex(Slot())
    /// Set once an answer is stored: what a spinning caller polls, without the lock.
    private let answered = Atomic<Bool>(false)

    /// Delivers the answer. A second answer is ignored (the hub removes a dispatch from its
    /// pending table before answering it, so none comes).
    func resume(with result: Result<JSONValue, any Error>) {
        let parked = slot.withLock { slot -> CheckedContinuation<Result<JSONValue, any Error>, Never>? in
            guard !slot.delivered, slot.result == nil else { return nil }
            guard let continuation = slot.continuation else {
                slot.result = result
                return nil
            }
            slot.continuation = nil
            slot.delivered = true
            return continuation
        }
        answered.store(true, ordering: .releasing)
        parked?.resume(returning: result)
    }

    func resume(throwing error: any Error) { resume(with: .failure(error)) }

    /// Waits for the answer: spins on the caller's thread for at most `spin` (giving the core
    /// to any other runnable thread on each turn), then parks the task. Called once.
    ///
    /// - Returns: the answer, and whether it came while spinning.
    func wait(spinningFor spin: Duration) async -> (result: Result<JSONValue, any Error>, spun: Bool) {
        if spin > .zero, let result = spinWait(for: spin) { return (result, true) }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<JSONValue, any Error>, Never>) in
            let ready = slot.withLock { slot -> Result<JSONValue, any Error>? in
                guard let result = slot.result else {
                    slot.continuation = continuation
                    return nil
                }
                slot.result = nil
                slot.delivered = true
                return result
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return (result, false)
    }

    /// The answer if it arrives within `budget`; `nil` otherwise (the caller then parks).
    private func spinWait(for budget: Duration) -> Result<JSONValue, any Error>? {
        let deadline = ContinuousClock.now + budget
        while true {
            if answered.load(ordering: .acquiring) { return take() }
            if ContinuousClock.now >= deadline { return nil }
            // Gives the core away when another thread wants it (the page's, on a loaded
            // machine), so a spin does not delay the answer it waits for.
            sched_yield()
        }
    }

    private func take() -> Result<JSONValue, any Error>? {
        slot.withLock { slot -> Result<JSONValue, any Error>? in
            guard let result = slot.result else { return nil }
            slot.result = nil
            slot.delivered = true
            return result
        }
    }
}
