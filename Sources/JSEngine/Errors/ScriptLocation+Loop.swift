extension ScriptLocation {
    /// The line of the loop a stop landed in, read from the script's text.
    ///
    /// JavaScriptCore stops a plain loop at the check it makes at the loop's head, and its
    /// backtrace maps that place to the last expression *before* the head (a line above the
    /// loop at a script's top level; the function's first line inside a function), not to the
    /// loop. So from `line`, within the same block, the first `for`, `while` or `do` keyword
    /// names the loop: strings, template literals and comments are skipped, and the search
    /// ends where the block that holds `line` closes (a `}` with no `{` after `line`) or after
    /// `lineLimit` lines. `nil` when there is none: the line stands.
    ///
    /// - Complexity: O(characters scanned), at most `lineLimit` lines.
    static func loopLine(in source: String, from line: Int, lineLimit: Int = 2_000) -> Int? {
        guard line >= 1 else { return nil }
        var bytes = source.utf8[...]
        // Skip to the start of `line`.
        var current = 1
        while current < line, let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            bytes = bytes[bytes.index(after: newline)...]
            current += 1
        }
        guard current == line else { return nil }
        var depth = 0
        var index = bytes.startIndex
        var previousIsIdentifier = false
        func isIdentifier(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x24 || byte >= 0x80
        }
        func word(_ text: String, at start: Substring.UTF8View.Index) -> Bool {
            var position = start
            for expected in text.utf8 {
                guard position < bytes.endIndex, bytes[position] == expected else { return false }
                position = bytes.index(after: position)
            }
            return position == bytes.endIndex || !isIdentifier(bytes[position])
        }
        while index < bytes.endIndex, current < line + lineLimit {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                current += 1
                previousIsIdentifier = false
            case UInt8(ascii: "{"):
                depth += 1
                previousIsIdentifier = false
            case UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 { return nil }
                previousIsIdentifier = false
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                // A string (a template's `${…}` is skipped whole with it: rare in a loop head).
                var position = bytes.index(after: index)
                while position < bytes.endIndex, bytes[position] != byte {
                    if bytes[position] == UInt8(ascii: "\\") { position = bytes.index(after: position) }
                    else if bytes[position] == UInt8(ascii: "\n") { current += 1 }
                    if position < bytes.endIndex { position = bytes.index(after: position) }
                }
                index = position
                previousIsIdentifier = false
            case UInt8(ascii: "/"):
                let next = bytes.index(after: index)
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "/") {
                    while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\n") { index = bytes.index(after: index) }
                    continue
                }
                if next < bytes.endIndex, bytes[next] == UInt8(ascii: "*") {
                    var position = bytes.index(after: next)
                    while position < bytes.endIndex {
                        if bytes[position] == UInt8(ascii: "\n") { current += 1 }
                        let after = bytes.index(after: position)
                        if bytes[position] == UInt8(ascii: "*"), after < bytes.endIndex, bytes[after] == UInt8(ascii: "/") { position = after; break }
                        position = after
                    }
                    index = position
                }
                previousIsIdentifier = false
            default:
                if !previousIsIdentifier, word("for", at: index) || word("while", at: index) || word("do", at: index) {
                    return current
                }
                previousIsIdentifier = isIdentifier(byte)
            }
            if index < bytes.endIndex { index = bytes.index(after: index) }
        }
        return nil
    }

    /// This location with its line moved to the loop it names, when `source` shows one.
    func atLoop(in source: String?) -> ScriptLocation {
        guard let source, let loop = Self.loopLine(in: source, from: line) else { return self }
        var moved = self
        moved.line = loop
        return moved
    }
}
