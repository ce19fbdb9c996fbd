import CustomDump
import JSEngine
import StateHub
import Testing

/// Expects the hub's mirror of `store` to equal `expected` as a whole (`nil`: no such
/// store); a difference is recorded as a Swift Testing issue showing the path that differs
/// (swift-custom-dump's diff).
public func expectMirror(
    of hub: GlobalStateHub, store: String, equals expected: JSONValue?, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectNoDifference(hub.state(of: store), expected, "mirror of \(store)", sourceLocation: sourceLocation)
}

/// Expects the hub's whole problem list (oldest first) to equal `expected`.
public func expectProblems(
    of hub: GlobalStateHub, equal expected: [HubProblem], sourceLocation: SourceLocation = #_sourceLocation
) {
    expectNoDifference(hub.problems, expected, "problems", sourceLocation: sourceLocation)
}

/// Records an issue with a readable diff when `actual` and `expected` differ.
///
/// Recorded through Swift Testing directly: swift-custom-dump's own `expectNoDifference`
/// finds Swift Testing at run time, which fails on Linux ("recorded without linking the
/// Testing framework"), so its diff is used and the issue recorded here.
func expectNoDifference<T: Equatable>(_ actual: T, _ expected: T, _ what: String, sourceLocation: SourceLocation) {
    guard actual != expected else { return }
    let difference = diff(expected, actual, format: .proportional) ?? "(no visible difference: order or number precision)"
    Issue.record("\(what) differs: − expected, + actual\n\(difference)", sourceLocation: sourceLocation)
}
