/// Why a JavaScript value has no JSON form. See `JSONValue` conversion in the module docs.
public enum ValueConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value (at the top level) is a function, a symbol or `undefined` where a value is required.
    case unsupportedType(String)
    /// The value refers to itself.
    case cycle
    /// BigInt has no JSON form.
    case bigInt
    /// JSON text handed to JavaScript did not parse.
    case invalidJSON(String)

    public var description: String {
        switch self {
        case .unsupportedType(let type): "a JavaScript \(type) has no JSON form"
        case .cycle: "the value contains a cycle and has no JSON form"
        case .bigInt: "a BigInt has no JSON form"
        case .invalidJSON(let why): "invalid JSON: \(why)"
        }
    }
}
