/// Strong entity tags made of a content hash, and `If-None-Match` matching (RFC 9110 §13.1.2:
/// weak comparison, `*` matches anything).
enum EntityTag {
    /// `"<sha256 hex>"`, quotes included.
    static func quoted(_ sha256: String) -> String { "\"\(sha256)\"" }

    /// Whether `ifNoneMatch` (a header value, possibly a list) names `tag` (quoted).
    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        for var candidate in listed(ifNoneMatch) {
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == tag[...] { return true }
        }
        return false
    }

    /// The members of a list header (`If-Match`, `If-None-Match`): split at commas, spaces and tabs
    /// around each trimmed.
    static func listed(_ header: String) -> [Substring] {
        header.split(separator: ",").map { part in
            var candidate = part.drop(while: { $0 == " " || $0 == "\t" })
            while let last = candidate.last, last == " " || last == "\t" { candidate = candidate.dropLast() }
            return candidate
        }
    }
}
