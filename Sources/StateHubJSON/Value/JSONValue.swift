import OrderedCollections

/// A JSON value as it crosses between JavaScript and Swift.
///
/// Objects keep their key order: the order JavaScript enumerates them in, which puts
/// integer-like keys first in ascending order, then the other keys in insertion order
/// (`{"b":1,"2":0}` reads back as `{"2":0,"b":1}`), exactly as `JSON.stringify` does.
/// Keys are ``JSONKey``s: compared by code units, as JavaScript compares property names.
///
/// Numbers are `Double`, as in JavaScript: integers are exact up to 2^53.
///
/// Nothing that walks a value recurses once per level: text, equality and hashing use an
/// explicit stack, and ``dismantle()`` frees a value of any depth. Values read from outside
/// (``JSONParser``, `Codable`) are capped at ``JSONParsingOptions/maximumDepth`` levels, so
/// dropping them the ordinary way is safe too.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(ObjectMembers)

    /// An object's members, in JavaScript's key order.
    public typealias ObjectMembers = OrderedDictionary<JSONKey, JSONValue>
}

extension JSONValue {
    /// The value at `key` when this is an object, else `nil`.
    ///
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[JSONKey(key)]
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
    public var objectValue: ObjectMembers? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The number as an `Int` when it is integral and in range, else `nil`.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) <= 9_007_199_254_740_992 else { return nil }
        return Int(n)
    }
}

extension OrderedDictionary where Key == JSONKey {
    /// The value for the key with this text: `members[name]` with a `String`.
    @inlinable public subscript(key: String) -> Value? {
        get { self[JSONKey(key)] }
        set { self[JSONKey(key)] = newValue }
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
    public init(dictionaryLiteral elements: (JSONKey, JSONValue)...) {
        self = .object(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text of the value.
    public var description: String { jsonText() }
}
