/// Hides credentials written in URLs inside any text: the `user:password@` of an
/// authority, and the value of a query parameter with a sensitive name
/// (`?access_token=…&`). O(n).
enum URLCredentials {
    static func redact(_ b: [UInt8], isSensitive: (ArraySlice<UInt8>) -> Bool) -> [UInt8] {
        var ranges: [Range<Int>] = []
        let n = b.count
        var i = 0
        @inline(__always) func ends(_ c: UInt8) -> Bool {
            c == 0x22 || c == 0x20 || c == 0x5C || c == 0x27 || c == 0x3C || c == 0x3E || c < 0x20
        }
        while i + 2 < n {
            // "://" starts an authority: user info is whatever precedes an '@' before the host ends.
            if b[i] == UInt8(ascii: ":"), b[i + 1] == UInt8(ascii: "/"), b[i + 2] == UInt8(ascii: "/") {
                let start = i + 3
                var j = start
                var at: Int?
                while j < n, !ends(b[j]), b[j] != UInt8(ascii: "/"), b[j] != UInt8(ascii: "?"), b[j] != UInt8(ascii: "#") {
                    if b[j] == UInt8(ascii: "@") { at = j }
                    j += 1
                }
                if let at, at > start { ranges.append(start ..< at) }
                i = j
                continue
            }
            // A query parameter: [?&]name=value
            if b[i] == UInt8(ascii: "?") || b[i] == UInt8(ascii: "&") {
                var j = i + 1
                while j < n, b[j] != UInt8(ascii: "="), b[j] != UInt8(ascii: "&"), !ends(b[j]), j - i < 64 { j += 1 }
                if j < n, b[j] == UInt8(ascii: "="), j > i + 1, isSensitive(b[(i + 1) ..< j]) {
                    var k = j + 1
                    while k < n, b[k] != UInt8(ascii: "&"), b[k] != UInt8(ascii: "#"), !ends(b[k]) { k += 1 }
                    if k > j + 1 { ranges.append((j + 1) ..< k) }
                    i = k
                    continue
                }
            }
            i += 1
        }
        guard !ranges.isEmpty else { return b }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        var last = 0
        for range in ranges {
            out.append(contentsOf: b[last ..< range.lowerBound])
            out.append(contentsOf: RecordRedactor.bare)
            last = range.upperBound
        }
        out.append(contentsOf: b[last...])
        return out
    }
}
