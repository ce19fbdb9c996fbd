/// Any JSON value, with object members in file order.
///
/// Used for the parts of a theme the contract does not know (kept and reported as
/// warnings) and as the input of `ThemeJSONDecoder`.
public indirect enum ThemeJSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ThemeJSONValue])
    case object(KeyedList<ThemeJSONValue>)

    /// A short name of the JSON type, for error messages ("string", "number", …).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension ThemeJSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        // Fast path keeps object order exactly when decoding through ThemeJSONDecoder.
        if let raw = decoder as? ThemeJSONDecoder.ValueDecoder {
            self = raw.value
            return
        }
        if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            self = .object(try KeyedList<ThemeJSONValue>(from: decoder))
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [ThemeJSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(ThemeJSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case .object(let members):
            try members.encode(to: encoder)
        }
    }
}
