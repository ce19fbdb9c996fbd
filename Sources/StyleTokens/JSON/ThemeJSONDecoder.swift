import Foundation
import StateHubJSON

/// Decodes `Decodable` types from JSON while keeping object keys in file order.
///
/// The text is parsed by StateHubJSON's parser (through `ThemeJSONReader`, which sets the
/// theme's stricter options and words its errors); `KeyedDecodingContainer.allKeys` then
/// lists keys in the order the file wrote them (Foundation's `JSONDecoder` does not promise that
/// on Linux), and failures come back as a typed `ThemeDecodingError` naming the JSON path. Types
/// decoded here stay plain `Decodable`: they also decode with `JSONDecoder`, only without the
/// order guarantee. A `JSONValue` inside such a type is handed over as parsed, order included.
public struct ThemeJSONDecoder: Sendable {
    /// The largest document read, in bytes (4 MiB by default: a theme is a few kilobytes; a
    /// document past this is refused before any parsing, with `ThemeDecodingError.tooLarge`).
    public var maximumSize: Int

    public init(maximumSize: Int = 4 << 20) { self.maximumSize = maximumSize }

    /// Parses `data` as JSON and decodes a `T` from it. O(n) in the size of `data`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(ThemeDecodingError) -> T {
        try decode(type, from: try parse(data))
    }

    /// Parses `data` as JSON, keeping object order; the raw tree the contract is built from.
    public func parse(_ data: Data) throws(ThemeDecodingError) -> JSONValue {
        try ThemeJSONReader.parse([UInt8](data), maximumSize: maximumSize)
    }

    /// Decodes a `T` from an already parsed JSON value.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(ThemeDecodingError) -> T {
        do {
            return try ValueDecoder(value: value, codingPath: []).decode(T.self)
        } catch let error as ThemeDecodingError {
            throw error
        } catch let error as DecodingError {
            throw Self.themeError(from: error)
        } catch {
            // Only decoding errors can come out of `init(from:)` here; keep the message anyway.
            throw .wrongType(path: "$", expected: "a valid \(T.self)", found: "\(error)")
        }
    }

    /// Maps Foundation-style decoding errors (thrown by `init(from:)` implementations themselves)
    /// to the typed error with a path.
    static func themeError(from error: DecodingError) -> ThemeDecodingError {
        switch error {
        case .keyNotFound(let key, let context):
            .missingField(path: ThemeJSONPath(codingPath: context.codingPath + [key]).description)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            .wrongType(path: ThemeJSONPath(codingPath: context.codingPath).description, expected: "\(type)", found: context.debugDescription)
        case .dataCorrupted(let context):
            .wrongType(path: ThemeJSONPath(codingPath: context.codingPath).description, expected: "a valid value", found: context.debugDescription)
        @unknown default:
            .wrongType(path: "$", expected: "a valid value", found: "\(error)")
        }
    }

    /// The decoder handed to `init(from:)`: one JSON value at one path.
    struct ValueDecoder: Decoder, SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        var pathDescription: String { ThemeJSONPath(codingPath: codingPath).description }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw mismatch("object") }
            return KeyedDecodingContainer(KeyedContainer<Key>(object: value, keys: members.keys.map(\.string), codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw mismatch("array") }
            return UnkeyedContainer(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func mismatch(_ expected: String) -> ThemeDecodingError {
            .wrongType(path: pathDescription, expected: expected, found: value.themeTypeName)
        }

        // MARK: SingleValueDecodingContainer

        func decodeNil() -> Bool { value == .null }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let bool) = value else { throw mismatch("boolean") }
            return bool
        }

        func decode(_ type: String.Type) throws -> String {
            guard case .string(let string) = value else { throw mismatch("string") }
            return string
        }

        func decode(_ type: Double.Type) throws -> Double {
            guard case .number(let number) = value else { throw mismatch("number") }
            return number
        }

        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
        func decode(_ type: Int.Type) throws -> Int { try integer() }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
        func decode(_ type: UInt.Type) throws -> UInt { try integer() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            // JSONValue's own `init(from:)` reads objects through a dictionary and so loses key
            // order: hand the parsed value over as it is.
            if T.self == JSONValue.self, let raw = value as? T { return raw }
            return try T(from: self)
        }

        private func integer<T: BinaryInteger>() throws -> T {
            guard case .number(let number) = value else { throw mismatch("integer") }
            guard let integer = T(exactly: number) else { throw mismatch("integer in range of \(T.self)") }
            return integer
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        /// The object being read.
        let object: JSONValue
        /// Its keys, in file order.
        let keys: [String]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

        private func child(_ key: Key) throws -> ValueDecoder {
            guard let value = object[key.stringValue] else {
                throw ThemeDecodingError.missingField(path: ThemeJSONPath(codingPath: codingPath + [key]).description)
            }
            return ValueDecoder(value: value, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try child(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath + [AnyCodingKey("super")])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> ValueDecoder {
            let path = codingPath + [AnyCodingKey(intValue: currentIndex)]
            guard !isAtEnd else {
                throw ThemeDecodingError.missingField(path: ThemeJSONPath(codingPath: path).description)
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: elements[currentIndex], codingPath: path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next().decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next().decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next().decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next().decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decode(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}
