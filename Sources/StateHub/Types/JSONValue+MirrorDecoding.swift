import Foundation
import JSEngine

extension JSONValue {
    /// Decodes a mirror (or an action's argument or result) as a type `statehub types`
    /// generated (docs/types.md), keeping `Date`, `Map`, `Set` and `BigInt` in their tagged
    /// forms for ``TaggedDate``, ``TaggedMap``, ``TaggedSet`` and ``TaggedBigInt``.
    ///
    /// Three tagged forms have no wrapper and are rewritten first: `{"$type":"undefined"}`
    /// is dropped from objects (an absent optional) and is `null` elsewhere;
    /// `{"$type":"Object","value":{…}}` is the object itself; `{"$type":"Number","value":"NaN"}`
    /// is read as `Double.nan` (and `±Infinity` likewise).
    ///
    /// - Complexity: O(n) in the size of the value; recursion is bounded by the hub's state
    ///   depth cap (`JSONValue.maximumStateDepth`).
    /// - Throws: `DecodingError` naming the coding path that did not fit.
    public func decodeMirror<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try mirrorNormalized().decode(T.self, decoder: decoder)
    }

    /// The value with `undefined`, escaped objects and non-finite numbers rewritten as
    /// ``decodeMirror(_:)`` documents; `Date`, `Map`, `Set` and `BigInt` tags are kept.
    public func mirrorNormalized() -> JSONValue {
        switch self {
        case .array(let elements):
            return .array(elements.map { $0.isUndefined ? .null : $0.mirrorNormalized() })
        case .object(let members):
            if case .string(let tag)? = members["$type"] {
                switch tag {
                case "undefined": return .null
                case "Object": return (members["value"] ?? .object([:])).mirrorNormalizedMembers()
                case "Number": return members["value"] ?? .null
                default: break
                }
            }
            return mirrorNormalizedMembers()
        default:
            return self
        }
    }

    /// An object's members normalized, `undefined` ones dropped (not re-read as a tag).
    private func mirrorNormalizedMembers() -> JSONValue {
        guard case .object(let members) = self else { return mirrorNormalized() }
        var out = ObjectMembers()
        out.reserveCapacity(members.count)
        for (key, value) in members where !value.isUndefined {
            out[key] = value.mirrorNormalized()
        }
        return .object(out)
    }
}
