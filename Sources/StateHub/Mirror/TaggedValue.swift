import Foundation
import JSEngine

/// The tagged forms the sync plugin uses for values JSON cannot carry (docs/PROTOCOL.md A.3),
/// and their decoding for `Codable` mirrors.
///
/// Mirrors keep tagged objects as they are (so equality and key order stay simple);
/// `untagged()` turns them into what `JSONDecoder` understands:
///
/// | tagged | untagged |
/// |---|---|
/// | `{"$type":"Date","value":ISO}` | the ISO 8601 string (decode with `TaggedValue.decoder`) |
/// | `{"$type":"undefined"}` | removed from objects (an absent optional), `null` elsewhere |
/// | `{"$type":"Number","value":"NaN"}` | the string `"NaN"` / `"Infinity"` / `"-Infinity"` (the decoder's non-conforming float strategy reads it) |
/// | `{"$type":"BigInt","value":"123"}` | the number when it fits a `Double` exactly, else the string |
/// | `{"$type":"Map","entries":[[k,v]…]}` | an object when every key is a string, else an array of `[k, v]` pairs |
/// | `{"$type":"Set","values":[…]}` | an array |
/// | `{"$type":"Object","value":{…}}` | the object itself |
public enum TaggedValue {
    /// `{"$type":"undefined"}`.
    public static let undefined: JSONValue = ["$type": "undefined"]

    /// A `JSONDecoder` that reads untagged values: ISO 8601 dates with or without fractional
    /// seconds, and `NaN`/`Infinity` strings as floating-point numbers.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = parseISO8601(text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }

    static func parseISO8601(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }
}

extension JSONValue {
    /// Whether this is `{"$type":"undefined"}`: JavaScript's `undefined` (an action that
    /// returned nothing, a property holding `undefined`), as opposed to `null`.
    public var isUndefined: Bool { self == TaggedValue.undefined }

    /// The value with every tagged form replaced as `TaggedValue` documents.
    ///
    /// - Complexity: O(n) in the size of the value.
    public func untagged() -> JSONValue {
        switch self {
        case .array(let elements):
            return .array(elements.map { $0.untagged() })
        case .object(let members):
            if case .string(let tag)? = members["$type"] {
                switch tag {
                case "Date": return members["value"] ?? .null
                case "undefined": return .null
                case "Number": return members["value"] ?? .null
                case "BigInt":
                    guard let text = members["value"]?.stringValue else { return .null }
                    if let number = Double(text), abs(number) <= 9_007_199_254_740_992 { return .number(number) }
                    return .string(text)
                case "Set": return .array((members["values"]?.arrayValue ?? []).map { $0.untagged() })
                case "Map":
                    let entries = members["entries"]?.arrayValue ?? []
                    let pairs = entries.compactMap { entry -> (JSONValue, JSONValue)? in
                        guard let pair = entry.arrayValue, pair.count == 2 else { return nil }
                        return (pair[0].untagged(), pair[1].untagged())
                    }
                    if pairs.allSatisfy({ $0.0.stringValue != nil }) {
                        var object = JSONValue.ObjectMembers()
                        for (key, value) in pairs { if let key = key.stringValue { object[key] = value } }
                        return .object(object)
                    }
                    return .array(pairs.map { .array([$0.0, $0.1]) })
                case "Object":
                    guard case .object(let inner)? = members["value"] else { return .null }
                    return .object(inner.mapValues { $0.untagged() }.filter { $0.value != .null || inner[$0.key] == .null })
                default: break
                }
            }
            var result = JSONValue.ObjectMembers()
            result.reserveCapacity(members.count)
            for (key, value) in members where value != TaggedValue.undefined {
                result[key] = value.untagged()
            }
            return .object(result)
        default:
            return self
        }
    }

    /// Equality that ignores object key order (JavaScript may order keys differently after
    /// a hydration than the snapshot did).
    public func isSemanticallyEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let lhs), .object(let rhs)):
            guard lhs.count == rhs.count else { return false }
            for (key, value) in lhs {
                guard let otherValue = rhs[key], value.isSemanticallyEqual(to: otherValue) else { return false }
            }
            return true
        case (.array(let lhs), .array(let rhs)):
            guard lhs.count == rhs.count else { return false }
            return zip(lhs, rhs).allSatisfy { $0.isSemanticallyEqual(to: $1) }
        default:
            return self == other
        }
    }
}
