import JSEngine

/// Why a legacy URL was rejected. `callback` is set when a valid one could be read, so
/// the page can be answered `err: 2`.
public struct LegacyURLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var callback: String?
    public var reason: String
    public init(callback: String?, reason: String) {
        self.callback = callback
        self.reason = reason
    }
    public var description: String { reason }
}
