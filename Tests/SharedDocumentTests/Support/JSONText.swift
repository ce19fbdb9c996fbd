import Foundation
@testable import SharedDocument

extension YValue {
    /// JSON text as JavaScript's `JSON.stringify` writes it (keys in the value's own order).
    var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .undefined, .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .double(let number):
            if number == number.rounded(), abs(number) < 1e21 { out += String(Int64(number)) } else { out += "\(number)" }
        case .bigint(let number): out += String(number)
        case .string(let string): Self.quote(string, into: &out)
        case .bytes(let data):
            out += "{"
            out += data.enumerated().map { "\"\($0.offset)\":\($0.element)" }.joined(separator: ",")
            out += "}"
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            var first = true
            for (key, value) in object {
                if !first { out += "," }
                first = false
                Self.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    static func quote(_ string: String, into out: inout String) {
        out += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }

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
