/// How `statehub types` turns JSON keys and store ids into Swift names (docs/types.md, "Names").
enum SwiftNames {
    /// Swift's keywords: a property or case with one of these names is written in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "async", "some", "any",
        "consume", "copy", "borrowing", "consuming", "package", "macro", "each", "discard", "Type", "Protocol",
    ]

    /// Names that even in backticks are not usable as a stored property or an enum case, or
    /// would shadow what the generated code uses: they get a trailing `_`.
    static let unusableMembers: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "_", "CodingKeys"]

    /// Type names the generated code writes in expressions (`container.decode(Int.self)`,
    /// `try JSONValue(encoding: x)`): a property, method or parameter of that name would shadow
    /// the type there and the file would not compile, so such members get a trailing `_`.
    static let expressionTypes: Set<String> = [
        "Bool", "Int", "Double", "String", "JSONValue", "TaggedValue", "TaggedDate", "TaggedBigInt", "TaggedSet", "TaggedMap",
        "DecodingError",
    ]

    /// Type names the generated code refers to, and Swift's own that keys commonly give (`tasks`,
    /// `results`, `errors`): a nested type with one of these names gets `Value` appended, so code
    /// in an extension of the state type still means Swift's `Task`, `Result` and `Error`.
    static let reservedTypes: Set<String> = [
        "Any", "Self", "Type", "Protocol", "Int", "Double", "Bool", "String", "Array", "Dictionary", "Optional", "Set",
        "JSONValue", "TaggedDate", "TaggedBigInt", "TaggedSet", "TaggedMap", "CodingKeys", "Codable", "Equatable",
        "Sendable", "Decoder", "Encoder", "DecodingError", "GlobalStateHub", "TaggedValue", "Entry", "Element",
        "Task", "Result", "Error", "Never", "Void", "Character", "Float", "State", "StoreFacade", "HubTransaction",
    ]

    /// Whether `text` is an ASCII Swift identifier (letters, digits, `_`; not starting with a digit).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(48 ... 57).contains(first) else { return false }
        return text.utf8.allSatisfy { isWordByte($0) }
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (48 ... 57).contains(byte) || (65 ... 90).contains(byte) || (97 ... 122).contains(byte) || byte == 95
    }

    /// The ASCII words of `text`: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, isWordByte(UInt8(scalar.value)), scalar != "_" {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// A member name for a key: the key itself when it is an identifier, else its words in
    /// lower camel case (`a-b` → `aB`), `_` first when it starts with a digit, `empty` for
    /// a key with no ASCII letter or digit.
    static func memberBase(_ key: String) -> String {
        if isIdentifier(key) { return unusableMembers.contains(key) || expressionTypes.contains(key) ? key + "_" : key }
        let parts = words(key)
        guard let first = parts.first else { return "empty" }
        var name = first.prefix(1).lowercased() + first.dropFirst()
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if let byte = name.utf8.first, (48 ... 57).contains(byte) { name = "_" + name }
        return unusableMembers.contains(name) || expressionTypes.contains(name) ? name + "_" : name
    }

    /// A member name as written: in backticks when it is a keyword.
    static func written(_ member: String) -> String {
        keywords.contains(member) ? "`\(member)`" : member
    }

    /// A type name from a key or store id: its words in upper camel case (`line-items` →
    /// `LineItems`), `T` first when it starts with a digit, `Value` for a key with no word.
    static func typeBase(_ key: String) -> String {
        let parts = words(key)
        guard !parts.isEmpty else { return "Value" }
        var name = parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if let byte = name.utf8.first, (48 ... 57).contains(byte) { name = "T" + name }
        if reservedTypes.contains(name) || keywords.contains(name) { name += "Value" }
        return name
    }

    /// The element type name of an array under `key`: `items` → `Item`, `entries` → `Entry`,
    /// `data` → `DataElement`.
    static func elementBase(_ key: String) -> String {
        let base = typeBase(key)
        if base.hasSuffix("ies"), base.count > 3 { return String(base.dropLast(3)) + "y" }
        if base.hasSuffix("s"), !base.hasSuffix("ss"), base.count > 1 {
            let singular = String(base.dropLast())
            return reservedTypes.contains(singular) || keywords.contains(singular) ? singular + "Value" : singular
        }
        return base + "Element"
    }

    /// A Swift string literal for `text`, escaping quotes, backslashes and every non-printable
    /// or non-ASCII scalar, so the generated file is plain ASCII.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                }
            }
        }
        return out + "\""
    }

    /// A key shown in a doc comment: printable ASCII as it is, the rest as a literal.
    static func shown(_ key: String) -> String {
        literal(key)
    }
}

/// Names already taken in one scope, handing out `Name`, `Name2`, `Name3`…
struct NameScope {
    private var taken: Set<String>

    init(taken: Set<String> = []) { self.taken = taken }

    mutating func claim(_ base: String) -> String {
        var name = base
        var n = 2
        while taken.contains(name) {
            name = base + String(n)
            n += 1
        }
        taken.insert(name)
        return name
    }
}
