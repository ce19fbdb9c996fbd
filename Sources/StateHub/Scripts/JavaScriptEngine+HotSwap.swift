import JSEngine
import Trace

extension JavaScriptEngine {
    /// Replaces a page's store code with a new version while its stores keep their state and
    /// their mirror: Pinia's hot module replacement, driven natively.
    ///
    /// The bundle is evaluated between `StateHubPinia.beginHotSwap()` and `endHotSwap()`: each
    /// `defineStore()` in it whose id already has a store in the active pinia hot-updates that
    /// store (`store._hotUpdate`, Pinia's semantics: existing state kept, new state keys added,
    /// removed ones deleted, actions and getters replaced). Subscribers and the native mirror
    /// see one change per store, a `set` of its whole state — not a new store. Stores the
    /// bundle defines for the first time are only defined, as on a first load.
    ///
    /// - Parameters:
    ///   - bundle: the new code, a classic script (an IIFE bundle).
    ///   - sourceURL: its name in stack traces and in the trace.
    ///   - trace: when given, receives one `hot_swap` record on the `page` channel naming the
    ///     updated stores (docs/trace.md).
    /// - Returns: the ids of the stores that were hot-updated, in definition order.
    /// - Throws: the bundle's own error (the stores updated before it threw stay updated).
    @discardableResult
    public func hotSwap(_ bundle: String, sourceURL: String, trace: TraceRecorder? = nil) throws -> [String] {
        try execute("StateHubPinia.beginHotSwap()", sourceURL: "statehub:hot-swap")
        var bundleError: (any Error)?
        do { try execute(bundle, sourceURL: sourceURL) } catch { bundleError = error }
        let swapped = (try evaluate("StateHubPinia.endHotSwap()", sourceURL: "statehub:hot-swap").arrayValue ?? []).compactMap(\.stringValue)
        let record: JSONValue = .object([
            "type": .string("hot_swap"),
            "sourceURL": .string(sourceURL),
            "bytes": .number(Double(bundle.utf8.count)),
            "stores": .array(swapped.map(JSONValue.string)),
        ])
        trace?.record(.nativeToWeb, channel: "page", engine: pageID, type: "hot_swap", message: record.jsonText(),
                      note: bundleError.map { "the new code threw: \($0)" })
        if let bundleError { throw bundleError }
        return swapped
    }
}
