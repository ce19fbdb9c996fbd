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
    /// Writes kept unknown members back, after the known ones.
    mutating func encodeUnknownFields(_ fields: KeyedList<JSONValue>) throws {
        for entry in fields.entries { try encode(entry.value, forKey: AnyCodingKey(entry.key)) }
    }
}
