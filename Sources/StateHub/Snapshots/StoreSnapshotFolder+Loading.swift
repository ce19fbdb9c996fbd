import Foundation
import JSEngine

extension StoreSnapshotFolder {
    /// How snapshot files are parsed: as the hub parses a page's message body, so a file nested
    /// past what any state within the cap needs is refused by the parser without recursion.
    static let parsing = JSONParsingOptions(maximumDepth: JSONValue.maximumMessageNesting)

    /// The state to hydrate `storeId` with, or `nil`: no file, or a file that failed a check
    /// (docs/pool.md, "Checks") — then it is logged, handed to ``onDrop`` and deleted.
    ///
    /// - Parameter initial: the store's fresh initial state, tagged-encoded as the plugin sends
    ///   it; the snapshot must fit it (same top-level keys, same kinds). `nil` skips that check.
    public func hydrationState(of storeId: String, fitting initial: JSONValue?) -> JSONValue? {
        let file = fileURL(of: storeId)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        switch check(storeId: storeId, file: file, initial: initial) {
        case .success(let state):
            return state
        case .failure(let reason):
            let drop = StoreSnapshotDrop(storeId: storeId, path: file.path, reason: reason)
            logger.warning("\(drop)")
            onDrop?(drop)
            try? FileManager.default.removeItem(at: file)
            return nil
        }
    }

    private func check(storeId: String, file: URL, initial: JSONValue?) -> Result<JSONValue, StoreSnapshotDrop.Reason> {
        let data: Data
        switch read(file) {
        case .success(let read): data = read
        case .failure(let reason): return .failure(reason)
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: String(decoding: data, as: UTF8.self), options: Self.parsing)
        } catch {
            if error.reason == .tooDeep(maximum: Self.parsing.maximumDepth) {
                return .failure(.tooDeep(limit: JSONValue.maximumStateDepth))
            }
            return .failure(.notJSON(String(describing: error)))
        }
        guard case .object(let members) = document else { return .failure(.wrongHeader("not an object")) }
        guard members["format"] == .string(Self.format) else { return .failure(.wrongHeader("format is not \"\(Self.format)\"")) }
        guard members["version"] == .number(Double(Self.version)) else { return .failure(.wrongHeader("version is not \(Self.version)")) }
        guard members["storeId"] == .string(storeId) else { return .failure(.wrongHeader("storeId is not \"\(storeId)\"")) }
        guard let state = members["state"], case .object = state else { return .failure(.stateNotObject) }
        // The cap the hub applies to a page's sync_state (docs/PROTOCOL.md A.8.1).
        if state.nestingDepth() > JSONValue.maximumStateDepth { return .failure(.tooDeep(limit: JSONValue.maximumStateDepth)) }
        if let initial, let misfit = Self.misfit(state, initial: initial) { return .failure(.doesNotFit(misfit)) }
        return .success(state)
    }

    /// The file's bytes, at most ``maximumBytes``: only a regular file, opened without following
    /// a symbolic link (a link would bring in a file from outside the folder, read whole before
    /// its size was checked) and without waiting for a FIFO's writer, and read no further than
    /// the cap even if the file grows meanwhile.
    private func read(_ file: URL) -> Result<Data, StoreSnapshotDrop.Reason> {
        let descriptor = open(file.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(.unreadable(code == ELOOP ? "a symbolic link, not a file" : "open failed: errno \(code)"))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable("fstat failed: errno \(errno)")) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable("not a regular file (a folder, FIFO or device)")) }
        if Int(info.st_size) > maximumBytes { return .failure(.tooLarge(bytes: Int(info.st_size), limit: maximumBytes)) }
        let data: Data
        do { data = try handle.read(upToCount: maximumBytes + 1) ?? Data() } catch {
            return .failure(.unreadable(String(describing: error)))
        }
        // The file may have grown since fstat.
        if data.count > maximumBytes { return .failure(.tooLarge(bytes: data.count, limit: maximumBytes)) }
        return .success(data)
    }

    /// Why `snapshot` does not fit a store whose fresh state is `initial`, or `nil` when it fits:
    /// the same top-level keys, each of the same kind unless the initial value is `null` or
    /// `undefined` (docs/pool.md, check 5).
    static func misfit(_ snapshot: JSONValue, initial: JSONValue) -> String? {
        guard case .object(let saved) = snapshot, case .object(let fresh) = initial else { return "the state is not an object" }
        let missing = fresh.keys.filter { saved[$0] == nil }
        if !missing.isEmpty { return "the store has \(missing.map { "\"\($0)\"" }.joined(separator: ", ")), the snapshot not" }
        let extra = saved.keys.filter { fresh[$0] == nil }
        if !extra.isEmpty { return "the snapshot has \(extra.map { "\"\($0)\"" }.joined(separator: ", ")), the store not" }
        for (key, value) in fresh {
            let expected = kind(of: value)
            guard expected != "null", expected != "undefined", let saved = saved[key] else { continue }
            let found = kind(of: saved)
            if found != expected { return "\"\(key)\" is \(found) in the snapshot, \(expected) in the store" }
        }
        return nil
    }

    /// A value's kind for the fit check: the JSON kind, a tagged value's tag (a tagged `Number`
    /// is a number, an escaped `Object` an object).
    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object(let members):
            guard case .string(let tag)? = members["$type"] else { return "object" }
            switch tag {
            case "Number": return "number"
            case "Object": return "object"
            default: return tag
            }
        }
    }
}
