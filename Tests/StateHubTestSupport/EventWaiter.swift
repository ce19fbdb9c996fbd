import Foundation
import Synchronization
import Testing

/// How long any wait in the suite may take before it counts as a hang: the same everywhere.
///
/// It only guards against a test that would otherwise never end; no test asserts that
/// something happened within it. Generous so that a loaded machine (two cores, seven builds)
/// never reaches it while the thing awaited is still on its way.
package let eventWaitDeadline: Duration = .seconds(120)

/// How long a test may wait for a child process (`statehub`, node, python) to exit, or for one
/// of its pipes to end, before it counts as a hang.
///
/// A hang guard like ``eventWaitDeadline``, longer because a child is a whole program: a
/// `statehub` command that starts an engine and a server takes seconds on a quiet machine and
/// several times that beside other tests on two cores. When it is reached the wait records
/// what it waited for and what `/proc` says of the child, so a lost exit reads differently from
/// a child that still runs.
package let childProcessDeadline: Duration = .seconds(600)

/// Waits for the first element of `events` that `isWanted` accepts (any, by default), and
/// returns it.
///
/// `events` is the event source itself: a hub's `changes(of:)`, an `AsyncStream` that a
/// callback (`onProblem`, a message handler, a log handler) yields into, lines read from a
/// child process. Make it before doing what should cause the event, so that nothing is
/// missed. When `events` ends first, or after ``eventWaitDeadline``, it records an issue that
/// says what it waited for and the last element it saw, and returns nil.
///
/// ```swift
/// let changes = hub.changes(of: "cart")
/// try await engine.execute("useCart().add('pear')")
/// let change = await waitFor("the mirror of cart to hold pear", in: changes) {
///     $0.state?["items"]?.arrayValue?.contains("pear") == true
/// }
/// ```
@discardableResult
package func waitFor<Events: AsyncSequence & Sendable>(
    _ description: String,
    in events: Events,
    sourceLocation: SourceLocation = #_sourceLocation,
    where isWanted: @escaping @Sendable (Events.Element) -> Bool = { _ in true }
) async -> Events.Element? where Events.Element: Sendable {
    let lastSeen = LastSeen()
    let outcome = await race { () async -> WaitOutcome<Events.Element> in
        do {
            for try await event in events {
                lastSeen.note(event)
                if isWanted(event) { return .found(event) }
            }
            return .ended
        } catch {
            return .failed(error)
        }
    }
    let seen = lastSeen.description
    switch outcome {
    case .found(let event): return event
    case .ended:
        Issue.record("the events ended while waiting for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .failed(let error):
        Issue.record("the events failed with \(error) while waiting for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .timedOut:
        Issue.record("waited \(eventWaitDeadline) for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .cancelled: break
    }
    return nil
}

/// Waits until `condition` holds, checking it now and again after each element of
/// `notifications`, and says whether it held.
///
/// For a condition on state that an event source announces without carrying it: the
/// `notifications` are that source (a `changes(of:)` stream, an `AsyncStream<Void>` that a
/// callback yields into); they are never a timer. Make them before doing what should change
/// the state. After ``eventWaitDeadline``, or when `notifications` end with the condition
/// still false, it records an issue with `description` and `observed()` (what was there
/// instead) and returns false.
///
/// ```swift
/// let (problems, onProblem) = AsyncStream<HubProblem>.makeStream()
/// // … a hub configured with `onProblem: { onProblem.yield($0) }`
/// await waitUntil("four stopped scripts", notifiedBy: problems, observed: { "\(hub.problems)" }) {
///     hub.problems.count(where: \.isStop) == 4
/// }
/// ```
@discardableResult
package func waitUntil<Notifications: AsyncSequence & Sendable>(
    _ description: String,
    notifiedBy notifications: Notifications,
    observed: @escaping @Sendable () async -> String = { "no description" },
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @Sendable () async -> Bool
) async -> Bool {
    let outcome = await race { () async -> WaitOutcome<Void> in
        if await condition() { return .found(()) }
        do {
            for try await _ in notifications {
                if await condition() { return .found(()) }
            }
            return .ended
        } catch {
            return .failed(error)
        }
    }
    if case .found = outcome { return true }
    if case .cancelled = outcome { return false }
    let seen = await observed()
    switch outcome {
    case .ended:
        Issue.record("the notifications ended while waiting for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .failed(let error):
        Issue.record("the notifications failed with \(error) while waiting for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .timedOut:
        Issue.record("waited \(eventWaitDeadline) for: \(description); last seen: \(seen)", sourceLocation: sourceLocation)
    case .found, .cancelled: break
    }
    return false
}

/// The description of the last element a wait saw.
private final class LastSeen: Sendable {
    private let text = Mutex("nothing")
    func note(_ element: some Any) { text.withLock { $0 = String(describing: element) } }
    var description: String { text.withLock { $0 } }
}

/// How a wait ended.
enum WaitOutcome<Value: Sendable>: Sendable {
    case found(Value)
    case ended
    case failed(any Error)
    case timedOut
    case cancelled
}

/// Runs `work` against `deadline` and returns whichever ends first, without waiting for the
/// loser: a sequence that ignores cancellation cannot hold the test past the deadline.
func race<Value: Sendable>(
    deadline: Duration = eventWaitDeadline,
    _ work: @escaping @Sendable () async -> WaitOutcome<Value>
) async -> WaitOutcome<Value> {
    let finish = FirstOutcome<Value>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            finish.start(
                continuation,
                worker: Task { finish.resume(await work()) },
                deadline: Task {
                    // The one sleep of the waiter: the hang guard, never the thing asserted.
                    do { try await ContinuousClock().sleep(for: deadline) } catch { return }
                    finish.resume(.timedOut)
                }
            )
        }
    } onCancel: {
        finish.resume(.cancelled)
    }
}

/// Resumes a wait once, with the first outcome, and cancels both racers then.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct Racers {
        var continuation: CheckedContinuation<WaitOutcome<Value>, Never>?
        var tasks: [Task<Void, Never>] = []
        var early: WaitOutcome<Value>?
    }
    private let racers = Mutex(Racers())

    func start(_ continuation: CheckedContinuation<WaitOutcome<Value>, Never>, worker: Task<Void, Never>, deadline: Task<Void, Never>) {
        let early = racers.withLock { racers -> WaitOutcome<Value>? in
            if let early = racers.early { return early } // cancelled before the racers began
            racers.continuation = continuation
            racers.tasks = [worker, deadline]
            return nil
        }
        if let early {
            worker.cancel()
            deadline.cancel()
            continuation.resume(returning: early)
        }
    }

    func resume(_ outcome: WaitOutcome<Value>) {
        let (continuation, tasks) = racers.withLock { racers in
            guard let continuation = racers.continuation else {
                if racers.early == nil { racers.early = outcome }
                return (nil as CheckedContinuation<WaitOutcome<Value>, Never>?, [Task<Void, Never>]())
            }
            racers.continuation = nil
            defer { racers.tasks = [] }
            return (continuation, racers.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(returning: outcome)
    }
}
