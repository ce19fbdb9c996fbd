import StateHubJSON

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Every member whose key is not in `known`, in file order, kept as raw JSON so that a
    /// newer theme's additions survive and can be reported as warnings.
    func unknownFields(known: Set<String>) throws -> KeyedList<JSONValue> {
        var unknown = KeyedList<JSONValue>()
        for key in allKeys where !known.contains(key.stringValue) {
            unknown[key.stringValue] = try decode(JSONValue.self, forKey: key)
        }
        return unknown
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    /// Writes kept unknown members back, after the known ones, objects' keys in their order.
    mutating func encodeUnknownFields(_ fields: KeyedList<JSONValue>) throws {
        for entry in fields.entries { try encode(OrderedJSONValue(entry.value), forKey: AnyCodingKey(entry.key)) }
    }
}

/// Encodes a `JSONValue` with object members in their order (`JSONValue`'s own `encode(to:)`
/// goes through a dictionary, which does not keep it).
private struct OrderedJSONValue: Encodable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(OrderedJSONValue(element)) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, member) in members { try container.encode(OrderedJSONValue(member), forKey: AnyCodingKey(key.string)) }
        default:
            try value.encode(to: encoder)
        }
    }
}
