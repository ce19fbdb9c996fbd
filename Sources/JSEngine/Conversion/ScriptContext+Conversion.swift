#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// JavaScript ⇄ JSON conversion.
///
/// JavaScript → JSON goes through JSC's `JSON.stringify` (`JSValueCreateJSONString`) and
/// our byte-level parser: measured in `statehub bench engine` against walking the values
/// with the C API (`jsonByWalking`), it is the faster of the two on every shape but a bare
/// number or string, which skip text altogether. The outcomes for what JSON cannot hold:
///
/// | value | at the top level | inside an object | inside an array |
/// |---|---|---|---|
/// | `undefined` | `.null` | key omitted | `null` |
/// | function, symbol | `ValueConversionError.unsupportedType` | key omitted | `null` |
/// | `NaN`, `±Infinity` | `.null` | `null` | `null` |
/// | BigInt | `ValueConversionError.bigInt` | same error | same error |
/// | a cycle | — | `ValueConversionError.cycle` | same |
/// | `Date` | its `toJSON()` string | same | same |
///
/// That is `JSON.stringify`'s own mapping, so a value reads the same in Swift as it would
/// after a trip through JSON in a web view. JSON → JavaScript goes through
/// `JSValueMakeFromJSONString` for arrays and objects and direct constructors for scalars.
extension ScriptContext {
    func json(from value: JSValueRef?) throws -> JSONValue {
        let context = try live()
        guard let value else { return .null }
        switch JSValueGetType(context, value) {
        case kJSTypeUndefined, kJSTypeNull: return .null
        case kJSTypeBoolean: return .bool(JSValueToBoolean(context, value))
        case kJSTypeNumber:
            let number = JSValueToNumber(context, value, nil)
            return number.isFinite ? .number(number) : .null
        case kJSTypeString: return .string(string(from: value))
        case kJSTypeSymbol: throw EngineError.conversion(.unsupportedType("symbol"))
        case kJSTypeBigInt: throw EngineError.conversion(.bigInt)
        case kJSTypeObject:
            if let object = JSValueToObject(context, value, nil), JSObjectIsFunction(context, object) {
                throw EngineError.conversion(.unsupportedType("function"))
            }
            return try insideEntry(keepingAlive: value) { try jsonByText(value) }
        default: throw EngineError.conversion(.unsupportedType("value of unknown type"))
        }
    }

    /// An object converted through `JSON.stringify` text.
    func jsonByText(_ value: JSValueRef) throws -> JSONValue {
        let context = try live()
        // A `toJSON` or getter is the page's code (``refuseWhileStopped(kind:)``).
        try refuseWhileStopped()
        var exception: JSValueRef?
        guard let text = JSValueCreateJSONString(context, value, 0, &exception) else {
            if let exception {
                let failure = error(fromException: exception)
                if let failure = failure as? JavaScriptError {
                    if failure.message.contains("cyclic") { throw EngineError.conversion(.cycle) }
                    if failure.message.contains("BigInt") { throw EngineError.conversion(.bigInt) }
                }
                throw failure
            }
            return .null // toJSON() answered undefined
        }
        defer { JSStringRelease(text) }
        do {
            return try JSONValue(parsing: String(jsString: text))
        } catch {
            throw EngineError.conversion(.invalidJSON(error.description))
        }
    }

    /// The same conversion by walking the value with the C API, kept to measure against.
    ///
    /// Follows the table above except that `toJSON` methods are not called.
    func jsonByWalking(_ value: JSValueRef?, depth: Int = 0) throws -> JSONValue {
        let context = try live()
        guard let value else { return .null }
        guard JSValueGetType(context, value) == kJSTypeObject else { return try json(from: value) }
        // Getters and proxy traps are the page's code (``insideEntry(keepingAlive:_:)``).
        if !turns.isInEntry { return try insideEntry(keepingAlive: value) { try jsonByWalking(value, depth: depth) } }
        if depth > 512 { throw EngineError.conversion(.cycle) }
        guard let object = JSValueToObject(context, value, nil) else { return .null }
        if JSObjectIsFunction(context, object) { return .null }
        if JSValueIsArray(context, value) {
            let length = Int(JSValueToNumber(context, try property("length", of: object), nil))
            var elements: [JSONValue] = []
            elements.reserveCapacity(length)
            for index in 0..<length {
                try refuseWhileStopped()
                var exception: JSValueRef?
                let element = JSObjectGetPropertyAtIndex(context, object, UInt32(index), &exception)
                if let exception { throw error(fromException: exception) }
                elements.append(try member(element, depth: depth))
            }
            return .array(elements)
        }
        try refuseWhileStopped()   // a proxy's `ownKeys`
        let names = JSObjectCopyPropertyNames(context, object)
        defer { JSPropertyNameArrayRelease(names) }
        var members = JSONValue.ObjectMembers()
        let count = JSPropertyNameArrayGetCount(names)
        members.reserveCapacity(count)
        for index in 0..<count {
            guard let name = JSPropertyNameArrayGetNameAtIndex(names, index) else { continue }
            try refuseWhileStopped()
            var exception: JSValueRef?
            let member = JSObjectGetProperty(context, object, name, &exception)
            if let exception { throw error(fromException: exception) }
            let type = JSValueGetType(context, member)
            if type == kJSTypeUndefined || type == kJSTypeSymbol { continue }
            if type == kJSTypeObject, let memberObject = JSValueToObject(context, member, nil), JSObjectIsFunction(context, memberObject) { continue }
            members[String(jsString: name)] = try self.member(member, depth: depth)
        }
        return .object(members)
    }

    private func member(_ value: JSValueRef?, depth: Int) throws -> JSONValue {
        guard let context, let value else { return .null }
        switch JSValueGetType(context, value) {
        case kJSTypeUndefined, kJSTypeSymbol: return .null
        case kJSTypeObject: return try jsonByWalking(value, depth: depth + 1)
        default: return try json(from: value)
        }
    }

    /// A JavaScript value for a JSON value.
    func jsValue(from value: JSONValue) throws -> JSValueRef? {
        let context = try live()
        switch value {
        case .null: return JSValueMakeNull(context)
        case .bool(let b): return JSValueMakeBoolean(context, b)
        case .number(let n): return JSValueMakeNumber(context, n)
        case .string(let s): return makeString(s)
        case .array, .object:
            guard let text = value.jsonText().jsStringRetained() else { throw EngineError.conversion(.invalidJSON("text")) }
            defer { JSStringRelease(text) }
            guard let result = JSValueMakeFromJSONString(context, text) else {
                throw EngineError.conversion(.invalidJSON("JavaScriptCore rejected the text"))
            }
            return result
        }
    }

    func makeString(_ text: String) -> JSValueRef? {
        guard let context, let string = text.jsStringRetained() else { return nil }
        defer { JSStringRelease(string) }
        return JSValueMakeString(context, string)
    }

    /// Runs `body` with the UTF-8 bytes of the value converted as ``string(from:escapingLoneSurrogates:)``
    /// converts it, borrowed for the call: they are copied out of JavaScriptCore into a
    /// temporary buffer (on the stack when small) and no `String` is made, so a reader that
    /// parses bytes pays neither the `String`'s allocation nor its UTF-8 validation. JSC
    /// writes valid UTF-8, except that it stops at a lone surrogate: that rare text goes
    /// through ``string(from:escapingLoneSurrogates:)``, which repairs it.
    func withUTF8<R>(of value: JSValueRef?, escapingLoneSurrogates: Bool = false,
                     _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let context, let value, let string = JSValueToStringCopy(context, value, nil) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        defer { JSStringRelease(string) }
        let length = JSStringGetLength(string)
        let capacity = JSStringGetMaximumUTF8CStringSize(string)
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
            let written = base.withMemoryRebound(to: CChar.self, capacity: capacity) { JSStringGetUTF8CString(string, $0, capacity) }
            // `written` counts the NUL; fewer bytes than UTF-16 units means JSC stopped early.
            if written > 0, written - 1 >= length {
                return try body(UnsafeBufferPointer(start: base, count: written - 1))
            }
            var text = String(jsString: string, escapingLoneSurrogates: escapingLoneSurrogates)
            return try text.withUTF8(body)
        }
    }

    /// The value converted to a string as JavaScript's `String(value)` would.
    func string(from value: JSValueRef?, escapingLoneSurrogates: Bool = false) -> String {
        guard let context, let value, let string = JSValueToStringCopy(context, value, nil) else { return "" }
        defer { JSStringRelease(string) }
        return String(jsString: string, escapingLoneSurrogates: escapingLoneSurrogates)
    }
}
