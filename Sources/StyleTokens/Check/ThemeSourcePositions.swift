import StateHubJSON

/// Where the places of a theme document start in its text, so each issue can name its line
/// and column beside its JSON path.
///
/// A member of an object starts at its key (`"author"` in `"author": "x"`), an array element
/// or the document at its value. Only places at most ``trackedDepth`` steps deep are kept:
/// every path the contract and its checks name is shorter (`components.card.shadow.color`
/// is four steps), and a deep unknown value costs nothing. Built only when a theme has
/// issues, so a valid theme pays nothing.
struct ThemeSourcePositions {
    /// Paths longer than this are not recorded.
    static let trackedDepth = 6

    /// Line and column of each recorded place, by its path's description (the form
    /// `ThemeIssue.path` has).
    private var locations: [String: (line: Int, column: Int)] = [:]

    /// Reads `bytes`, a document the strict parse accepted. O(n + p log p) for n bytes and p
    /// places: every place's line and column come from one sweep of the text. (Counting each
    /// problem's column from its line's start was O(problems × line length): a one-line theme
    /// with 60,000 problems held the server for an hour.)
    init(_ bytes: [UInt8]) {
        let places = Self.walk(bytes).sorted { $0.value < $1.value }
        var next = 0
        var line = 1, column = 1
        for (offset, byte) in bytes.enumerated() {
            while next < places.count, places[next].value == offset {
                locations[places[next].key] = (line, column)
                next += 1
            }
            guard next < places.count else { break }
            // As JSONSourceLocation counts: lines at line feeds, columns in Unicode scalars.
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        for place in places[next...] { locations[place.key] = (line, column) } // at the very end of the text
    }

    /// The line and column where the place named `path` starts, or `nil` when the document
    /// has no such place (or it is deeper than ``trackedDepth``). O(1).
    func location(of path: String) -> (line: Int, column: Int)? {
        locations[path]
    }

    private struct Frame {
        /// `nil` below ``trackedDepth``: nothing under it is recorded.
        var path: ThemeJSONPath?
        var isObject: Bool
        var nextIndex = 0
        var expectsKey: Bool
        /// The member whose value comes next.
        var memberPath: ThemeJSONPath?
    }

    private static func walk(_ bytes: [UInt8]) -> [String: Int] {
        var offsets: [String: Int] = [:]
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
            var tokenizer = JSONTokenizer(bytes: buffer, position: start)
            var stack: [Frame] = []
            func child(of frame: Frame?, key: String? = nil, index: Int? = nil) -> ThemeJSONPath? {
                guard let frame else { return .root }
                guard let path = frame.path, path.segments.count < trackedDepth else { return nil }
                if let key { return path.appending(key) }
                return path.appending(index: index ?? 0)
            }
            while let token = try? tokenizer.next(), token.kind != .end {
                switch token.kind {
                case .string where stack.last?.expectsKey == true:
                    let top = stack.count - 1
                    let path = child(of: stack[top], key: tokenizer.string(of: token))
                    if let path { offsets[path.description] = token.range.lowerBound }
                    stack[top].memberPath = path
                    stack[top].expectsKey = false
                case .comma:
                    if let top = stack.indices.last, stack[top].isObject { stack[top].expectsKey = true }
                case .colon:
                    break
                case .endObject, .endArray:
                    stack.removeLast()
                default:
                    // A value: the document, an element (recorded here) or a member's value (recorded at its key).
                    let path: ThemeJSONPath?
                    if let top = stack.indices.last {
                        if stack[top].isObject {
                            path = stack[top].memberPath
                        } else {
                            path = child(of: stack[top], index: stack[top].nextIndex)
                            stack[top].nextIndex += 1
                            if let path { offsets[path.description] = token.range.lowerBound }
                        }
                    } else {
                        path = .root
                        offsets[ThemeJSONPath.root.description] = token.range.lowerBound
                    }
                    if token.kind == .beginObject || token.kind == .beginArray {
                        stack.append(Frame(path: path, isObject: token.kind == .beginObject, expectsKey: token.kind == .beginObject))
                    }
                }
            }
        }
        return offsets
    }
}
