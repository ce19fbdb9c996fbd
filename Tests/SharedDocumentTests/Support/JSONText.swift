import Foundation
@testable import SharedDocument

extension YValue {
    /// JSON text as JavaScript's `JSON.stringify` writes it: the library's own writer.
    var jsonText: String { jsonString() }

    /// A plain JSON value for the peers' command encoder.
    var foundationValue: Any {
        switch self {
        case .undefined, .null: return NSNull()
        case .bool(let flag): return flag
        case .int(let number): return number
        case .double(let number): return number
        case .bigint(let number): return number
        case .string(let string): return string
        case .bytes(let data): return data.map { Int($0) }
        case .array(let values): return values.map(\.foundationValue)
        case .object(let object):
            var dictionary: [String: Any] = [:]
            for (key, value) in object { dictionary[key] = value.foundationValue }
            return dictionary
        }
    }
}

/// JSON text with keys sorted and numbers normalised: for comparing replicas whose key
/// order legitimately differs (they saw keys arrive in different orders).
func canonicalJSON(_ text: String) -> String {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
          let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed]) else { return "unparseable: " + text }
    return String(decoding: data, as: UTF8.self)
}
