import StateHub
import Trace
import StateHubTestSupport
import Testing

/// Waits until the mirror status of `store` satisfies `condition`, checked now and on each
/// change of the store or problem of the hub (the status moves with one or the other).
@discardableResult
func status(of hub: GlobalStateHub, _ store: String, becomes condition: @escaping @Sendable (MirrorStatus?) -> Bool,
            sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    await waitUntil("the mirror status of \(store) to meet the test's condition", notifiedBy: hubEvents(hub, store: store),
                    observed: { "\(String(describing: hub.mirrorStatus(of: store)))" }, sourceLocation: sourceLocation) {
        condition(hub.mirrorStatus(of: store))
    }
}

/// Waits until the hub has recorded `count` problems that `isWanted` accepts, checked now and on
/// each new problem, and returns them.
@discardableResult
func problems(of hub: GlobalStateHub, count: Int = 1, _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
              where isWanted: @escaping @Sendable (HubProblem) -> Bool) async -> [HubProblem] {
    await waitUntil("\(count) \(description)", notifiedBy: hub.problemStream(), observed: { "\(hub.problems)" },
                    sourceLocation: sourceLocation) {
        hub.problems.filter(isWanted).count >= count
    }
    return hub.problems.filter(isWanted)
}

/// A problem that is a stop at the page's time limit.
@Sendable func isScriptStop(_ problem: HubProblem) -> Bool {
    if case .scriptStopped = problem.kind { true } else { false }
}

/// One element for each change of `store` and each problem of `hub`, from now on.
func hubEvents(_ hub: GlobalStateHub, store: String) -> AsyncStream<Void> {
    let (events, event) = AsyncStream<Void>.makeStream()
    let changes = hub.changes(of: store)
    let problems = hub.problemStream()
    let forwarders = [
        Task { for await _ in changes { event.yield() } },
        Task { for await _ in problems { event.yield() } },
    ]
    event.onTermination = { _ in for forwarder in forwarders { forwarder.cancel() } }
    return events
}

/// Waits until `hub` has sent a message of `type` (`dispatch`, `sync_state`, …) to `pageID`, as
/// its trace records it, and the message is on its way: the hub records a message and queues it
/// to the page under its lock, so once a read of the hub returns after the record, the page has
/// it queued and anything the test queues to the page afterwards runs after it.
@discardableResult
func sent(_ type: String, to pageID: String, by hub: GlobalStateHub, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    guard let trace = hub.configuration.trace else {
        Issue.record("the hub has no trace to follow its messages", sourceLocation: sourceLocation)
        return false
    }
    let isWanted: @Sendable (TraceRecord) -> Bool = { $0.engine == pageID && $0.direction == .nativeToWeb && $0.type == type }
    let seen = await waitUntil("a \(type) sent to \(pageID)", notifiedBy: trace.liveRecords(),
                               observed: { "\(trace.records.filter { $0.engine == pageID }.map(\.type))" }, sourceLocation: sourceLocation) {
        trace.records.contains(where: isWanted)
    }
    _ = hub.storeIDs // the hub's lock: the send recorded is queued
    return seen
}
