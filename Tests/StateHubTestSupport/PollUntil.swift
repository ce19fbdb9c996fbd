import Testing

/// How often ``pollUntil(_:observed:sourceLocation:_:)`` reads its state again.
package let pollInterval: Duration = .milliseconds(10)

/// Waits until `condition` holds, for state that announces no event: a server's gauge (live
/// connection handlers, attached connections, bytes queued, a document still loaded) that
/// changes when a channel is freed or a task ends inside the server.
///
/// Use ``waitUntil(_:notifiedBy:observed:sourceLocation:_:)`` wherever an event exists, and say
/// at each call site why none does; this reads the state again every ``pollInterval``. The interval decides only how soon a change is
/// seen, never whether the test passes: past ``eventWaitDeadline`` it records an issue with
/// `description` and `observed()` (what was there instead) and returns false.
@discardableResult
package func pollUntil(
    _ description: String,
    observed: @escaping @Sendable () async -> String = { "no description" },
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: @escaping @Sendable () async -> Bool
) async -> Bool {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < eventWaitDeadline {
        if await condition() { return true }
        do { try await Task.sleep(for: pollInterval) } catch { return false }
    }
    if await condition() { return true }
    Issue.record("waited \(eventWaitDeadline) for: \(description); last seen: \(await observed())", sourceLocation: sourceLocation)
    return false
}
