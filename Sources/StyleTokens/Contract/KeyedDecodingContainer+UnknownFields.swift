extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Every member whose key is not in `known`, in file order, kept as raw JSON so that a
    /// newer theme's additions survive and can be reported as warnings.
    func unknownFields(known: Set<String>) throws -> KeyedList<ThemeJSONValue> {
        var unknown = KeyedList<ThemeJSONValue>()
        for key in allKeys where !known.contains(key.stringValue) {
            unknown[key.stringValue] = try decode(ThemeJSONValue.self, forKey: key)
        }
        return unknown
    }
}

extension KeyedEncodingContainer where Key == AnyCodingKey {
    /// Writes kept unknown members back, after the known ones.
    mutating func encodeUnknownFields(_ fields: KeyedList<ThemeJSONValue>) throws {
        for entry in fields.entries { try encode(entry.value, forKey: AnyCodingKey(entry.key)) }
    }
}
