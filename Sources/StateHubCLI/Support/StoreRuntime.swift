import JSSources

/// The store runtime's scripts, in load order, with the names they report in stacks.
enum StoreRuntime {
    static let scripts: [(String, String)] = ["runtime/reactivity.js", "runtime/pinia.js"].compactMap { path in
        JSSources.files[path].map { ("statehub:\(path)", $0) }
    }
}
