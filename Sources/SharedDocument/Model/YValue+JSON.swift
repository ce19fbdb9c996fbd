import StateHubJSON

extension YValue {
    /// JSON text as JavaScript's `JSON.stringify(value, null, indent)` writes it: keys in the
    /// value's own (JavaScript) order, integral numbers without a fraction, `undefined` as
    /// `null`, bytes as an object of indices (what `JSON.stringify` does with a `Uint8Array`).
    public func jsonString(indent: Int = 0) -> String {
        var out = ""
        write(to: &out, indent: indent, level: 0)
        return out
    }

    private func write(to out: inout String, indent: Int, level: Int) {
        func newline(_ level: Int) {
            guard indent > 0 else { return }
            out += "\n" + String(repeating: " ", count: indent * level)
        }
        let separator = indent > 0 ? ": " : ":"
        switch self {
        case .undefined, .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .double(let number):
            if !number.isFinite { out += "null" } else if number == number.rounded(), abs(number) < 1e21 { out += String(Int64(number)) } else { out += "\(number)" }
        case .bigint(let number): out += String(number)
        case .string(let string): JSONValue.writeString(string, into: &out)
        case .bytes(let data):
            YValue.object(YObject(data.enumerated().map { (String($0.offset), YValue.int(Int64($0.element))) })).write(to: &out, indent: indent, level: level)
        case .array(let values):
            guard !values.isEmpty else { out += "[]"; return }
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "]"
        case .object(let object):
            guard object.count > 0 else { out += "{}"; return }
            out += "{"
            var first = true
            for (key, value) in object {
                if !first { out += "," }
                first = false
                newline(level + 1)
                JSONValue.writeString(key, into: &out)
                out += separator
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out += "}"
        }
    }
}

extension YObject {
    /// An object from key/value pairs in the given order (JavaScript's key order applies).
    public init(_ pairs: [(String, YValue)]) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }
}
