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
    /// `[JSONValue]` and its result back (`statehub bench engine` measures both
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

    /// Binds a Swift closure that takes the UTF-8 bytes of one text argument as a JavaScript
    /// function, as ``bindReceiver(_:on:_:)`` does with a `String`: the same argument rules,
    /// but `body` gets the bytes borrowed for the call (do not keep the pointer), and no
    /// `String` is made for them.
    ///
    /// For receivers that parse the text themselves (the hub's message decoder reads UTF-8):
    /// a call costs the C API's copy of the string into a temporary buffer and the closure,
    /// no allocation for a short text, no UTF-8 validation (`statehub bench engine`
    /// measures it against the C API's floor, which makes the same copy).
    public func bindBytesReceiver(_ name: String, on path: String = "",
                                  _ body: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try context.bind(name, on: path) { owner, _, arguments in
            try owner.receiveArgument(arguments.first ?? nil, escapingLoneSurrogates: false, body)
            return nil
        }
    }
}

extension ScriptContext {
    /// A receiver's argument as UTF-8 bytes: a string as it is, anything else as its JSON text.
    @inline(__always)
    func receiveArgument(_ argument: JSValueRef?, escapingLoneSurrogates: Bool,
                         _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        guard let raw = context else { throw EngineError.closed }
        if let argument, JSValueIsString(raw, argument) {
            try withUTF8(of: argument, escapingLoneSurrogates: escapingLoneSurrogates, body)
        } else {
            var text = try json(from: argument).jsonText()
            try text.withUTF8(body)
        }
    }
}
