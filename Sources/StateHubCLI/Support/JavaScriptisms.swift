import Foundation
import StateHubJSON

/// `--dispatch` arguments are JSON; people write JavaScript (`{name:"x"}`, `'x'`, `[1,]`,
/// `undefined`). When text that is not JSON becomes JSON once those are rewritten, this
/// says which ones it found and gives the rewritten text to paste.
struct JavaScriptisms {
    enum Kind: CaseIterable {
        case unquotedKey, singleQuotes, trailingComma, undefined

        var explanation: String {
            switch self {
            case .unquotedKey: "object keys need double quotes ({\"name\": \"x\"}, not {name: \"x\"})"
            case .singleQuotes: "strings take double quotes (\"x\", not 'x')"
            case .trailingComma: "JSON allows no comma before ] or } or the closing parenthesis"
            case .undefined: "JSON has no undefined: write null, or leave a last argument out"
            }
        }
    }

    /// What was found, in the order of ``Kind``.
    var found: [Kind]
    /// The text with every one of them rewritten; JSON.
    var rewritten: String

    /// `nil` when the text has none of them, or is still not JSON once they are rewritten.
    init?(_ text: String) {
        var kinds = Set<Kind>()
        var out = ""
        let chars = Array(text)
        var i = 0
        func isIdentifierStart(_ c: Character) -> Bool { c.isLetter || c == "_" || c == "$" }
        func isIdentifierPart(_ c: Character) -> Bool { isIdentifierStart(c) || c.isNumber }
        func nextSignificant(after index: Int) -> Character? {
            var j = index
            while j < chars.count, chars[j].isWhitespace { j += 1 }
            return j < chars.count ? chars[j] : nil
        }
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "\"":
                // A JSON string: copied as it is, escapes and all.
                out.append(c)
                i += 1
                while i < chars.count, chars[i] != "\"" {
                    if chars[i] == "\\", i + 1 < chars.count { out.append(chars[i]); i += 1 }
                    out.append(chars[i])
                    i += 1
                }
                if i < chars.count { out.append("\""); i += 1 }
            case "'":
                kinds.insert(.singleQuotes)
                out.append("\"")
                i += 1
                while i < chars.count, chars[i] != "'" {
                    if chars[i] == "\\", i + 1 < chars.count {
                        // `\'` needs no escape in JSON; every other escape is the same.
                        if chars[i + 1] != "'" { out.append("\\") }
                        out.append(chars[i + 1])
                        i += 2
                        continue
                    }
                    if chars[i] == "\"" { out.append("\\") }
                    out.append(chars[i])
                    i += 1
                }
                out.append("\"")
                i += 1
            case ",":
                if let next = nextSignificant(after: i + 1), next != "]" && next != "}" {
                    out.append(c)
                } else {
                    kinds.insert(.trailingComma)
                }
                i += 1
            case _ where c.isNumber || c == "-" || c == "+" || c == ".":
                // A number (its `e` is not a word).
                while i < chars.count, chars[i].isNumber || "+-.eE".contains(chars[i]) { out.append(chars[i]); i += 1 }
            case _ where isIdentifierStart(c):
                var word = ""
                while i < chars.count, isIdentifierPart(chars[i]) { word.append(chars[i]); i += 1 }
                if word == "undefined" {
                    kinds.insert(.undefined)
                    out += "null"
                } else if nextSignificant(after: i) == ":" {
                    kinds.insert(.unquotedKey)
                    out += JSONValue.string(word).jsonText()
                } else {
                    out += word
                }
            default:
                out.append(c)
                i += 1
            }
        }
        guard !kinds.isEmpty, (try? JSONValue(parsing: out)) != nil else { return nil }
        found = Kind.allCases.filter(kinds.contains)
        rewritten = out
    }

    /// `text` in single quotes for a POSIX shell (a `'` inside becomes `'\''`).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `the arguments are JSON, not JavaScript: REASONS`.
    var explanation: String {
        "the arguments are JSON, not JavaScript: " + found.map(\.explanation).joined(separator: "; ")
    }
}
