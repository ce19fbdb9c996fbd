import JSSources

/// A bridge script is not among the embedded js/ files.
public enum BridgeScriptsError: Error, Sendable, Hashable, CustomStringConvertible {
    case missing(String)
    public var description: String {
        switch self { case .missing(let path): "js/\(path) is not embedded in this build" }
    }
}
