/// A snapshot file that was not applied, and why (docs/pool.md, "Checks").
///
/// The store keeps its initial state; the file is deleted so the warning is not repeated on
/// every start.
public struct StoreSnapshotDrop: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Error, Sendable, Equatable {
        /// The file is larger than ``StoreSnapshotFolder/maximumBytes``.
        case tooLarge(bytes: Int, limit: Int)
        /// The file could not be read (permissions, a folder in its place).
        case unreadable(String)
        /// The file is not JSON (corrupt or truncated); the parser's message.
        case notJSON(String)
        /// `format`, `version` or `storeId` is not what this folder writes for the store.
        case wrongHeader(String)
        /// `state` is not an object.
        case stateNotObject
        /// `state` nests deeper than the hub's cap (`JSONValue.maximumStateDepth`).
        case tooDeep(limit: Int)
        /// The snapshot does not fit the store as its code defines it now (an older shape).
        case doesNotFit(String)
    }

    public var storeId: String
    /// The file that was dropped.
    public var path: String
    public var reason: Reason

    public init(storeId: String, path: String, reason: Reason) {
        self.storeId = storeId
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let why: String = switch reason {
        case .tooLarge(let bytes, let limit): "\(bytes) bytes, over the cap of \(limit)"
        case .unreadable(let error): "unreadable: \(error)"
        case .notJSON(let error): "not JSON: \(error)"
        case .wrongHeader(let what): "not a snapshot of this store: \(what)"
        case .stateNotObject: "state is not an object"
        case .tooDeep(let limit): "state nests deeper than \(limit) levels"
        case .doesNotFit(let what): "does not fit the store's current shape: \(what)"
        }
        return "snapshot of store \(storeId) dropped (\(path)): \(why)"
    }
}
