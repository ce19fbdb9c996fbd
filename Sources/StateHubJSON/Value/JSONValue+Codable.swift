import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value; objects come back in code-unit order of their keys, because
    /// `JSONDecoder` does not promise key order (and merges keys that Swift considers equal):
    /// prefer ``JSONParser`` where order or exact keys matter.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a value nested deeper than
    ///   ``JSONParsingOptions/defaultMaximumDepth`` levels, so decoding cannot overflow the stack.
    public init(from decoder: any Decoder) throws {
        guard decoder.codingPath.count < JSONParsingOptions.defaultMaximumDepth else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "nested deeper than \(JSONParsingOptions.defaultMaximumDepth) levels"
            ))
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let b = try? container.decode(Bool.self) { self = .bool(b); return }
        if let n = try? container.decode(Double.self) { self = .number(n); return }
        if let s = try? container.decode(String.self) { self = .string(s); return }
        if let a = try? container.decode([JSONValue].self) { self = .array(a); return }
        let o = try container.decode([String: JSONValue].self)
        self = .object(.init(uniqueKeysWithValues: o.map { (JSONKey($0.key), $0.value) }.sorted { $0.0 < $1.0 }))
    }

    /// - Throws: `EncodingError.invalidValue` for a value nested deeper than
    ///   ``JSONParsingOptions/defaultMaximumDepth`` levels; ``jsonText()`` writes any depth.
    public func encode(to encoder: any Encoder) throws {
        guard encoder.codingPath.count < JSONParsingOptions.defaultMaximumDepth else {
            throw EncodingError.invalidValue(self, .init(
                codingPath: encoder.codingPath,
                debugDescription: "nested deeper than \(JSONParsingOptions.defaultMaximumDepth) levels"
            ))
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(Dictionary(o.map { ($0.key.string, $0.value) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

extension JSONValue {
    /// Encodes a Swift value as a JSON value, through `JSONEncoder`.
    public init<T: Encodable>(encoding value: T) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
    }

    /// Decodes the value as `T`, through `JSONDecoder`.
    ///
    /// - Throws: `DecodingError` naming the coding path that did not fit.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(jsonText().utf8))
    }
}
