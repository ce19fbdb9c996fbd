import StateHubJSON

extension YValue {
    /// JSON text as JavaScript's `JSON.stringify(value, null, indent)` writes it: keys in the
    /// value's own (JavaScript) order, numbers spelled as JavaScript spells them (StateHubJSON's
    /// `writeNumber`), `undefined` as `null` in arrays and left out of objects, bytes as an
    /// object of indices (what `JSON.stringify` does with a `Uint8Array`).
    ///
    /// Walks the value with an explicit stack, so any depth is written without recursion.
    public func jsonString(indent: Int = 0) -> String {
        var writer = YValueJSONWriter(indent: indent)
        writer.write(self)
        return writer.output
    }
}

/// The iterative writer behind ``YValue/jsonString(indent:)``.
private struct YValueJSONWriter {
    /// A container being written and the index of its next element or key.
    enum Open {
        case array([YValue], next: Int)
        /// `keys` is read once when the object opens: ``YObject/keys`` sorts on every read.
        case object(YObject, keys: [String], next: Int)
    }

    let indent: Int
    var output = ""
    var stack: [Open] = []

    init(indent: Int) { self.indent = indent }

    mutating func write(_ root: YValue) {
        begin(root)
        while let top = stack.popLast() {
            let level = stack.count + 1
            switch top {
            case .array(let values, let next):
                guard next < values.count else { close("]", level: level - 1); continue }
                if next > 0 { output += "," }
                newline(level)
                stack.append(.array(values, next: next + 1))
                begin(values[next])
            case .object(let object, let keys, var next):
                // JSON.stringify leaves out members whose value is undefined.
                while next < keys.count, object[keys[next]] ?? .undefined == .undefined { next += 1 }
                guard next < keys.count else { close("}", level: level - 1); continue }
                let key = keys[next]
                if output.utf8.last != UInt8(ascii: "{") { output += "," }
                newline(level)
                JSONValue.writeString(key, into: &output)
                output += indent > 0 ? ": " : ":"
                stack.append(.object(object, keys: keys, next: next + 1))
                begin(object[key] ?? .null)
            }
        }
    }

    /// Writes a scalar, or opens a container and leaves it on the stack.
    mutating func begin(_ value: YValue) {
        switch value {
        case .undefined, .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): JSONValue.writeNumber(Double(number), into: &output)
        case .double(let number): JSONValue.writeNumber(number, into: &output)
        case .bigint(let number): output += String(number)
        case .string(let string): JSONValue.writeString(string, into: &output)
        case .bytes(let data):
            begin(.object(YObject(data.enumerated().map { (String($0.offset), YValue.int(Int64($0.element))) })))
        case .array(let values):
            if values.isEmpty { output += "[]" } else { output += "["; stack.append(.array(values, next: 0)) }
        case .object(let object):
            output += "{"
            stack.append(.object(object, keys: object.keys, next: 0))
        }
    }

    /// Ends a container: on its own line when indenting and it had members.
    mutating func close(_ bracket: String, level: Int) {
        if output.utf8.last == UInt8(ascii: bracket == "]" ? "[" : "{") {
            output += bracket
        } else {
            newline(level)
            output += bracket
        }
    }

    mutating func newline(_ level: Int) {
        guard indent > 0 else { return }
        output += "\n"
        output += String(repeating: " ", count: indent * level)
    }
}

extension YObject {
    /// An object from key/value pairs in the given order (JavaScript's key order applies).
    public init(_ pairs: [(String, YValue)]) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }
}
