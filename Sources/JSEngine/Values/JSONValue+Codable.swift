import Foundation

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let b = try? container.decode(Bool.self) { self = .bool(b); return }
        if let n = try? container.decode(Double.self) { self = .number(n); return }
        if let s = try? container.decode(String.self) { self = .string(s); return }
        if let a = try? container.decode([JSONValue].self) { self = .array(a); return }
        // JSONDecoder does not promise key order: prefer `JSONValue(parsing:)` where order matters.
        let o = try container.decode([String: JSONValue].self)
        self = .object(.init(uniqueKeysWithValues: o.sorted { $0.key < $1.key }))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(Dictionary(uniqueKeysWithValues: o.map { ($0.key, $0.value) }))
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
