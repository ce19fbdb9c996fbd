extension DecodingError {
    /// The error as bridge text naming the field: `payload.message: expected String`,
    /// `payload.configs[0].type: unknown config type "x"`, `payload.url: required field missing`.
    var payloadDescription: String {
        switch self {
        case .typeMismatch(let type, let context):
            return "\(Self.path(context.codingPath)): expected \(Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(Self.path(context.codingPath)): expected \(Self.typeName(type)), got null"
        case .keyNotFound(let key, let context):
            return "\(Self.path(context.codingPath + [key])): required field missing"
        case .dataCorrupted(let context):
            return "\(Self.path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "payload: \(self)"
        }
    }

    /// `payload`, `payload.a`, `payload.configs[2].type`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = "payload"
        for key in keys {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += "." + key.stringValue
            }
        }
        return text
    }

    /// `String`, `Int`, `Array`, `Object` rather than generic spellings.
    static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "Array" }
        if name.hasPrefix("Dictionary<") || name.hasPrefix("KeyedDecodingContainer") { return "Object" }
        if name.hasPrefix("UnkeyedDecodingContainer") { return "Array" }
        return name
    }
}
