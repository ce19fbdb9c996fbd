import OrderedCollections

/// A JSON value as it crosses between JavaScript and Swift.
///
/// Objects keep their key order: the order JavaScript enumerates them in, which puts
/// integer-like keys first in ascending order, then the other keys in insertion order
/// (`{"b":1,"2":0}` reads back as `{"2":0,"b":1}`), exactly as `JSON.stringify` does.
///
/// Numbers are `Double`, as in JavaScript: integers are exact up to 2^53.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(ObjectMembers)

    /// An object's members, in JavaScript's key order.
    public typealias ObjectMembers = OrderedDictionary<String, JSONValue>
}

extension JSONValue {
    /// The value at `key` when this is an object, else `nil`.
    ///
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: OrderedDictionary<String, JSONValue>? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// The number as an `Int` when it is integral and in range, else `nil`.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) <= 9_007_199_254_740_992 else { return nil }
        return Int(n)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { jsonText() }
}
