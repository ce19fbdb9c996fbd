/// What `statehub types --check` says when a committed file no longer matches what would be
/// generated now: how many lines differ, and the first few, `-` committed and `+` generated.
public enum TypesCheck {
    /// `nil` when `committed` equals `generated`; else a short summary (at most `limit` lines shown).
    public static func difference(committed: String, generated: String, limit: Int = 8) -> String? {
        guard committed != generated else { return nil }
        let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
        let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
        // The common head and tail, then the differing middle of each side.
        var head = 0
        while head < old.count, head < new.count, old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < old.count - head, tail < new.count - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        let removed = old[head ..< old.count - tail]
        let added = new[head ..< new.count - tail]
        var lines = ["differs from line \(head + 1): \(removed.count) line\(removed.count == 1 ? "" : "s") committed, \(added.count) generated in their place"]
        var shown = 0
        for line in removed where shown < limit { lines.append("- " + cut(line)); shown += 1 }
        for line in added where shown < limit * 2 { lines.append("+ " + cut(line)); shown += 1 }
        if removed.count + added.count > shown { lines.append("… \(removed.count + added.count - shown) more") }
        return lines.joined(separator: "\n")
    }

    /// A line of at most 200 characters (a 10,000-field initializer is one line).
    static func cut(_ line: Substring) -> String {
        line.count <= 200 ? String(line) : line.prefix(200) + "…"
    }
}
