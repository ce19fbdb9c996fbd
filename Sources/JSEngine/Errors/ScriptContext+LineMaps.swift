/// Places reported in their original sources, for scripts evaluated with a ``ScriptLineMap``.
extension ScriptContext {
    /// `location` in its original source, when its script came with a line map; `stack` too.
    func mapped(_ location: ScriptLocation) -> ScriptLocation {
        var result = location
        if let map = lineMaps[location.sourceURL], let place = map.place(line: location.line) {
            result.sourceURL = place.sourceURL
            result.line = place.line
        }
        if !lineMaps.isEmpty { result.stack = mappedBacktrace(location.stack) }
        return result
    }

    /// A JavaScriptCore backtrace (`#0 name() at url:line` a line) with mapped places.
    func mappedBacktrace(_ text: String) -> String {
        guard !lineMaps.isEmpty, !text.isEmpty else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { frame -> String in
            guard let at = frame.range(of: " at ", options: .backwards) else { return String(frame) }
            let place = frame[at.upperBound...]
            guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]),
                  let mapped = lineMaps[String(place[..<colon])]?.place(line: line) else { return String(frame) }
            return "\(frame[..<at.upperBound])\(mapped.sourceURL):\(mapped.line)"
        }.joined(separator: "\n")
    }

    /// An error's place and stack (`name@url:line:column` a line) in their original sources.
    func mapped(_ error: JavaScriptError) -> JavaScriptError {
        guard !lineMaps.isEmpty else { return error }
        var result = error
        if let url = error.sourceURL, let line = error.line, let place = lineMaps[url]?.place(line: line, column: error.column) {
            result.sourceURL = place.sourceURL
            result.line = place.line
            result.column = place.column
        }
        if let stack = error.stack {
            result.stack = stack.split(separator: "\n", omittingEmptySubsequences: false).map { frame -> String in
                // `url:line:column` at the end of the frame (the URL may hold colons itself).
                guard let last = frame.lastIndex(of: ":"), let column = Int(frame[frame.index(after: last)...]) else { return String(frame) }
                let head = frame[..<last]
                guard let middle = head.lastIndex(of: ":"), let line = Int(head[head.index(after: middle)...]) else { return String(frame) }
                let front = head[..<middle]
                let urlStart = front.lastIndex(of: "@").map { front.index(after: $0) } ?? front.startIndex
                guard let place = lineMaps[String(front[urlStart...])]?.place(line: line, column: column) else { return String(frame) }
                return "\(front[..<urlStart])\(place.sourceURL):\(place.line):\(place.column ?? column)"
            }.joined(separator: "\n")
        }
        return result
    }
}
