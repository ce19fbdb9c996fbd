#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension ScriptContext {
    /// Evaluates one of StateHub's own scripts reading its text in place (``ResidentScript``), or,
    /// where that cannot be done, as ``evaluateRaw(_:sourceURL:lineMap:)`` does. Its source is not
    /// kept for stop locations: `sourceURL` is a `statehub:` one.
    func evaluateRaw(_ script: ResidentScript, sourceURL: String) throws -> JSValueRef? {
        let context = try live()
        guard let group else { throw EngineError.closed }
        let url = sourceURL.jsStringRetained()
        defer { if let url { JSStringRelease(url) } }
        guard let parsed = PrivateJavaScriptCore.residentScript(script, group: group, url: url) else {
            return try evaluateRaw(script.source, sourceURL: sourceURL)
        }
        defer { PrivateJavaScriptCore.releaseScript(parsed) }
        return try enter(entry: sourceURL, kind: .script) {
            var exception: JSValueRef?
            let result = PrivateJavaScriptCore.evaluate(parsed, in: context, exception: &exception)
            if let exception { throw error(fromException: exception) }
            return result
        }
    }
}
