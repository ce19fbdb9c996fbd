extension ScriptLocation {
    /// The line of the loop a stop landed in, read forward from the line JavaScriptCore gives
    /// for a stop at a loop's head.
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
        var lexer = LoopLexer(source)
        guard lexer.skip(toLine: line) else { return nil }
        var depth = 0
        // The body of the function JavaScriptCore's frame names, when it begins on `line`
        // (`work() { return /(x+x+)+y/.test(s) },`): a loop after its end is another
        // function's (the next method's `for (;;)`), so the line stands.
        var functionBody: Int?
        var sawBrace = false
        var previous: LoopLexer.Token?
        var parens: [Bool] = []   // per open `(`: whether a name precedes it (a call, a function head)
        var closedNamedParen = false
        while let token = lexer.next(), lexer.line < line + lineLimit {
            switch token {
            case .openParen: parens.append(previous == .name)
            case .closeParen: closedNamedParen = parens.popLast() ?? false
            case .open:
                let opensFunction = (previous == .closeParen && closedNamedParen) || previous == .arrow
                if !sawBrace, depth == 0, lexer.line == line, opensFunction { functionBody = 1 }
                sawBrace = true
                depth += 1
            case .close:
                if depth == functionBody { return nil }
                depth -= 1
                if depth < 0 { return nil }
            case .loopKeyword: return lexer.line
            default: break
            }
            previous = token
        }
        return nil
    }

    /// The line of the innermost loop whose body holds `line`, or `line` itself when a loop
    /// starts on it: the rule every stop follows (a stop names the loop's own line).
    ///
    /// A stop read where the page called something (a write the store runtime handles, a
    /// native function) has the exact line of that call, inside the loop's body; the loop is
    /// the innermost `for` / `while` / `do` whose body — a `{ … }` block, or the one statement
    /// of a loop without braces — is still open at the start of `line`. `nil` when none is.
    ///
    /// - Complexity: O(characters up to the end of `line`), one pass.
    static func enclosingLoopLine(in source: String, at line: Int) -> Int? {
        guard line >= 1 else { return nil }
        // One frame per open `{` or `(`; `loop` is the line of the loop a `{` is the body of.
        struct Frame { var isParen: Bool; var loop: Int? }
        // A loop keyword whose body has not begun: `for` / `while` wait for their head's
        // parentheses to close (at `depth`), `do` begins its body at once.
        struct Pending { var line: Int; var depth: Int; var inHead: Bool }
        var stack: [Frame] = []
        var pending: Pending?
        var bracelessLoops: [(line: Int, depth: Int)] = []
        func innermost() -> Int? {
            if let head = pending, !head.inHead { return head.line }
            let braced = stack.last { $0.loop != nil }?.loop
            let braceless = bracelessLoops.last?.line
            switch (braced, braceless) {
            case let (a?, b?): return max(a, b)
            case let (a, b): return a ?? b
            }
        }
        // The loop around the start of `line`, unless a loop's body begins on `line` (`bare() {
        // for (;;) this.step() }`: the backtrace has no column, and the call is most likely in
        // that one).
        var atStart: Int??
        var bodyBeganOnLine = false
        var lexer = LoopLexer(source)
        while let token = lexer.next() {
            if lexer.line > line { break }
            if lexer.line == line, atStart == nil { atStart = .some(innermost()) }
            switch token {
            case .loopKeyword(let isDo):
                // `while` right after a `do` body is that loop's tail, not a new loop.
                pending = Pending(line: lexer.line, depth: stack.count, inHead: !isDo)
            case .openParen:
                stack.append(Frame(isParen: true, loop: nil))
            case .closeParen:
                if stack.last?.isParen == true { stack.removeLast() }
                if var head = pending, head.inHead, stack.count == head.depth { head.inHead = false; pending = head }
            case .open:
                if let head = pending, !head.inHead, stack.count == head.depth {
                    stack.append(Frame(isParen: false, loop: head.line))
                    if head.line == line { bodyBeganOnLine = true }
                    pending = nil
                } else {
                    stack.append(Frame(isParen: false, loop: nil))
                }
            case .close:
                if stack.last?.isParen == false { stack.removeLast() }
                bracelessLoops.removeAll { $0.depth > stack.count }
                if let head = pending, head.depth > stack.count { pending = nil }
            case .semicolon:
                if stack.last?.isParen == true { break }
                if let head = pending, !head.inHead, stack.count == head.depth { pending = nil }
                // The statement of a braceless loop (or its whole chain, `for (…) for (…) x;`) ends here.
                bracelessLoops.removeAll { $0.depth >= stack.count }
            case .other, .name, .arrow:
                // A braceless body began: the loop stays open until its statement ends.
                if let head = pending, !head.inHead, stack.count == head.depth {
                    bracelessLoops.append((head.line, stack.count))
                    if head.line == line { bodyBeganOnLine = true }
                    pending = nil
                }
            }
        }
        if bodyBeganOnLine { return line }
        return atStart ?? innermost()
    }

    /// This location with its line moved to the loop it names, when `source` shows one:
    /// forward from JavaScriptCore's line for a stop at a loop's head (`atHead`), else the
    /// loop around the line.
    func atLoop(in source: String?, atHead: Bool) -> ScriptLocation {
        guard let source else { return self }
        let loop = atHead ? Self.loopLine(in: source, from: line) ?? Self.enclosingLoopLine(in: source, at: line)
                          : Self.enclosingLoopLine(in: source, at: line)
        guard let loop else { return self }
        var moved = self
        moved.line = loop
        return moved
    }
}

/// The few tokens the loop rules need from JavaScript text: braces, parentheses, `;`, the
/// loop keywords and anything else, with strings, template literals and comments skipped and
/// lines counted. Regular-expression literals are not recognised (a `/{/` miscounts a brace).
struct LoopLexer {
    enum Token: Equatable {
        case open, close, openParen, closeParen, semicolon, other
        /// An identifier or keyword other than the loop keywords and `if`, `switch`, `catch`,
        /// `with` (whose parentheses are not a call's or a function head's).
        case name
        /// `=>`.
        case arrow
        /// `for`, `while` or `do` (`isDo`).
        case loopKeyword(isDo: Bool)
        static let loopKeyword = Token.loopKeyword(isDo: false)
        static func == (a: Token, b: Token) -> Bool {
            switch (a, b) {
            case (.open, .open), (.close, .close), (.openParen, .openParen), (.closeParen, .closeParen), (.semicolon, .semicolon),
                 (.other, .other), (.name, .name), (.arrow, .arrow), (.loopKeyword, .loopKeyword): return true
            default: return false
            }
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var current = 1
    /// The line of the token last returned (1-based; the line moved to by `skip(toLine:)`).
    private(set) var line = 1

    init(_ source: String) { bytes = Array(source.utf8) }

    /// Moves to the start of `line`; `false` when the text has fewer lines.
    mutating func skip(toLine target: Int) -> Bool {
        while current < target, index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { current += 1 }
            index += 1
        }
        line = current
        return current == target
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    mutating func next() -> Token? {
        while index < bytes.count {
            let byte = bytes[index]
            let start = current
            switch byte {
            case UInt8(ascii: "\n"):
                current += 1
                index += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                // A string (a template's `${…}` is skipped whole with it: rare in a loop head).
                index += 1
                while index < bytes.count, bytes[index] != byte {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 } else if bytes[index] == UInt8(ascii: "\n") { current += 1 }
                    index += 1
                }
                index += 1
                return emit(.other, at: start)
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")) {
                    if bytes[index] == UInt8(ascii: "\n") { current += 1 }
                    index += 1
                }
                index += 2
                continue
            case UInt8(ascii: "{"): index += 1; return emit(.open, at: start)
            case UInt8(ascii: "}"): index += 1; return emit(.close, at: start)
            case UInt8(ascii: "("): index += 1; return emit(.openParen, at: start)
            case UInt8(ascii: ")"): index += 1; return emit(.closeParen, at: start)
            case UInt8(ascii: ";"): index += 1; return emit(.semicolon, at: start)
            case UInt8(ascii: "=") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ">"):
                index += 2
                return emit(.arrow, at: start)
            default:
                guard Self.isIdentifier(byte) else { index += 1; return emit(.other, at: start) }
                let begin = index
                while index < bytes.count, Self.isIdentifier(bytes[index]) { index += 1 }
                let word = bytes[begin..<index]
                if word.elementsEqual("do".utf8) { return emit(.loopKeyword(isDo: true), at: start) }
                if word.elementsEqual("for".utf8) || word.elementsEqual("while".utf8) { return emit(.loopKeyword, at: start) }
                let isControl = word.elementsEqual("if".utf8) || word.elementsEqual("switch".utf8) || word.elementsEqual("catch".utf8) || word.elementsEqual("with".utf8)
                return emit(isControl ? .other : .name, at: start)
            }
        }
        return nil
    }

    private mutating func emit(_ token: Token, at start: Int) -> Token {
        line = start
        return token
    }
}
