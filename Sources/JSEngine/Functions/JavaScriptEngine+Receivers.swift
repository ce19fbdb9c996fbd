#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension JavaScriptEngine {
    /// Binds a Swift closure that takes one text argument as a JavaScript function: `path.name`,
    /// or a global when `path` is empty. It returns `undefined`.
    ///
    /// The closure gets the call's first argument: a string as it is (a lone surrogate becomes
    /// U+FFFD, as in ``bind(_:on:_:)``), anything else as its JSON text (`undefined` and no
    /// argument as `null`). Further arguments are not read. An error it throws becomes a
    /// JavaScript exception, as in ``bind(_:on:_:)``.
    ///
    /// For receivers of messages: a call converts one string and allocates no array of
    /// arguments and no result, where ``bind(_:on:_:)`` converts every argument into a
    /// `[JSONValue]` and its result back (issue 18; `statehub bench engine` measures both
    /// against the C API's floor).
    public func bindReceiver(_ name: String, on path: String = "", _ body: @escaping @Sendable (String) throws -> Void) throws {
        try context.bind(name, on: path) { owner, _, arguments in
            guard let raw = owner.context else { throw EngineError.closed }
            let first = arguments.first ?? nil
            if let first, JSValueIsString(raw, first) {
                try body(owner.string(from: first))
            } else {
                try body(try owner.json(from: first).jsonText())
            }
            return nil
        }
    }
}
