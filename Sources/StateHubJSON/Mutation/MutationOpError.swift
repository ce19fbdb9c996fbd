/// Why a wire operation could not be read or applied.
public struct MutationOpError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: [PathStep]
    public var reason: String

    package init(path: [PathStep], reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "operation at \(path.dotted): \(reason)" }
}
