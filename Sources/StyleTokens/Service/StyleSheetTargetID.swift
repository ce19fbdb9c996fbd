/// Identifies a target attached to a `ThemeService`, to detach it or to name it in a failure.
public struct StyleSheetTargetID: Sendable, Hashable, CustomStringConvertible {
    let rawValue: Int

    public var description: String { "target #\(rawValue)" }
}
