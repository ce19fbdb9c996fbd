extension JSONValue {
    /// The compact JSON text of the value, as `JSON.stringify` would write it.
    ///
    /// Non-finite numbers are written as `null`, as `JSON.stringify` does. Any depth: the
    /// walk keeps its own stack.
    /// - Complexity: O(n) in the size of the value.
    public func jsonText() -> String {
        var output = ""
        output.reserveCapacity(64)
        JSONValue.write(self, into: &output)
        return output
    }

    /// Indented JSON text for people: `indentation` once per level, one member per line,
    /// `": "` after keys, empty containers as `[]` and `{}`. Any depth.
    /// - Complexity: O(n × depth) in the worst case, for the indentation written.
    public func jsonText(indentedBy indentation: String) -> String {
        var output = ""
        JSONValue.write(self, into: &output, indentation: indentation)
        return output
    }

    /// One open container while writing: its members and the next one to write.
    private struct WriteFrame {
        var elements: [JSONValue] = []
        var members: ObjectMembers = [:]
        let isObject: Bool
        var next = 0
    }

    /// Appends the JSON text of `value` to `output`: compact, or indented when
    /// `indentation` is given (see ``jsonText(indentedBy:)``).
    public static func write(_ value: JSONValue, into output: inout String, indentation: String? = nil) {
        func newline(_ output: inout String, depth: Int) {
            guard let indentation else { return }
            output += "\n"
            for _ in 0..<depth { output += indentation }
        }
        var stack: [WriteFrame] = []
        var current: JSONValue? = value
        while true {
            if let value = current {
                current = nil
                switch value {
                case .null: output += "null"
                case .bool(let b): output += b ? "true" : "false"
                case .number(let n): writeNumber(n, into: &output)
                case .string(let s): writeString(s, into: &output)
                case .array(let elements):
                    if elements.isEmpty { output += "[]" } else {
                        output += "["
                        stack.append(WriteFrame(elements: elements, isObject: false))
                    }
                case .object(let members):
                    if members.isEmpty { output += "{}" } else {
                        output += "{"
                        stack.append(WriteFrame(members: members, isObject: true))
                    }
                }
            }
            guard let top = stack.indices.last else { return }
            let index = stack[top].next
            if stack[top].isObject {
                if index == stack[top].members.count {
                    newline(&output, depth: top)
                    output += "}"
                    stack.removeLast()
                    continue
                }
                if index > 0 { output += "," }
                newline(&output, depth: top + 1)
                writeString(stack[top].members.keys[index].string, into: &output)
                output += indentation == nil ? ":" : ": "
                current = stack[top].members.values[index]
            } else {
                if index == stack[top].elements.count {
                    newline(&output, depth: top)
                    output += "]"
                    stack.removeLast()
                    continue
                }
                if index > 0 { output += "," }
                newline(&output, depth: top + 1)
                current = stack[top].elements[index]
            }
            stack[top].next = index + 1
        }
    }

    /// Appends `n` as JavaScript's `Number.prototype.toString` (and so `JSON.stringify`) does:
    /// the shortest digits that read back as the same double — Swift's `description` finds
    /// those — laid out by ECMA-262's rules: plain notation for decimal exponents from -6 to
    /// 20 (`1e20` → `100000000000000000000`, `0.000001`), exponent notation outside
    /// (`1e+21`, `1e-7`). `-0` is written `0`; non-finite numbers `null`.
    public static func writeNumber(_ n: Double, into output: inout String) {
        guard n.isFinite else { output += "null"; return }
        if n == 0 { output += "0"; return }
        if n.rounded() == n, abs(n) <= 9_007_199_254_740_992 {
            output += String(Int64(n))
            return
        }
        let text = abs(n).description
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].drop(while: { $0 == "+" })) ?? 0
        }
        let integerPart: Substring
        let fractionPart: Substring
        if let dot = mantissa.firstIndex(of: ".") {
            integerPart = mantissa[..<dot]
            fractionPart = mantissa[mantissa.index(after: dot)...]
        } else {
            integerPart = mantissa
            fractionPart = ""
        }
        // value = 0.digits × 10^point
        var digits = Array((integerPart + fractionPart).utf8)
        var point = integerPart.count + exponent
        while digits.first == UInt8(ascii: "0") { digits.removeFirst(); point -= 1 }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        guard k > 0 else { output += "0"; return }
        if n < 0 { output += "-" }
        let digitText = String(decoding: digits, as: UTF8.self)
        if k <= point && point <= 21 {
            output += digitText + String(repeating: "0", count: point - k)
        } else if 0 < point && point <= 21 {
            output += String(decoding: digits[..<point], as: UTF8.self) + "." + String(decoding: digits[point...], as: UTF8.self)
        } else if -6 < point && point <= 0 {
            output += "0." + String(repeating: "0", count: -point) + digitText
        } else {
            let e = point - 1
            output += String(decoding: digits[..<1], as: UTF8.self)
            if k > 1 { output += "." + String(decoding: digits[1...], as: UTF8.self) }
            output += e < 0 ? "e-\(-e)" : "e+\(e)"
        }
    }

    /// Appends `s` as a JSON string literal, escaping what JSON requires (and nothing else).
    public static func writeString(_ s: String, into output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            output += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{08}": output += "\\b"
                case "\u{0C}": output += "\\f"
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        output.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        output += "\""
    }
}
