import JSEngine
import JSSources

/// The JavaScript a page needs to host mirrored stores, in load order.
public enum StoreScripts {
    /// Our Pinia and Vue reactivity alone, as `(sourceURL, source)` pairs: stores without
    /// mirroring (what `statehub eval` loads).
    public static let piniaRuntime = scripts(["runtime/reactivity.js", "runtime/pinia.js"])

    /// The store runtime, the sync plugin and its installer, as `(sourceURL, source)` pairs.
    /// A page on real Pinia loads only the plugin.
    public static let storeRuntime = piniaRuntime + scripts(["plugin/sync-plugin.js", "plugin/install.js"]) + chunking

    /// Sends messages over native's cap in chunks (docs/PROTOCOL.md A.11). A page on real
    /// Pinia loads it after the plugin too.
    public static let chunking = scripts(["plugin/chunking.js"])

    private static func scripts(_ paths: [String]) -> [(name: String, source: String)] {
        paths.map { path in
            ("statehub:\(path)", JSSources.files[path] ?? "throw new Error('StateHub was built without js/\(path)')")
        }
    }

    /// How the installed sync plugin batches mutations.
    public enum Flush: String, Sendable {
        /// One `apply_mutation` per store per tick (the default).
        case tick
        /// One `apply_mutation` per mutation.
        case sync
    }
}

extension JavaScriptEngine {
    /// Loads the store runtime and the sync plugin, so scripts evaluated afterwards can
    /// `defineStore` and every store is mirrored by a hub attached to this engine.
    ///
    /// Attach the hub first: stores announce themselves once, when created.
    /// - Parameter maxMessageBytes: the hub's cap; larger messages are sent in chunks.
    public func loadStoreRuntime(flush: StoreScripts.Flush = .tick, maxMessageBytes: Int = 8 << 20) throws {
        try execute("globalThis.StateHubSyncConfig = { flush: '\(flush.rawValue)', maxMessageBytes: \(maxMessageBytes) }", sourceURL: "statehub:config")
        for (name, source) in StoreScripts.storeRuntime {
            try execute(source, sourceURL: name)
        }
    }
}
