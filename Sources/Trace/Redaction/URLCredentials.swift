/// Hides credentials written in URLs inside any text: the `user:password@` of an
/// authority, and the value of a query parameter with a sensitive name
/// (`?access_token=…&`). Names and values are compared percent-decoded: `?acc%65ss_token=…`
/// is hidden, and so is a value whose decoded text holds a secret (a legacy bridge URL's
/// `params=%7B%22token%22%3A…`), whole. O(n).
enum URLCredentials {
    /// Parameter names longer than this are not read as names.
    static let longestName = 192

    static func redact(_ b: [UInt8], isSensitive: (ArraySlice<UInt8>) -> Bool,
                       containsSecret: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
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
                while j < n, b[j] != UInt8(ascii: "="), b[j] != UInt8(ascii: "&"), !ends(b[j]), j - i < longestName { j += 1 }
                if j < n, b[j] == UInt8(ascii: "="), j > i + 1 {
                    var k = j + 1
                    while k < n, b[k] != UInt8(ascii: "&"), b[k] != UInt8(ascii: "#"), !ends(b[k]) { k += 1 }
                    let value = b[(j + 1) ..< k]
                    if isSensitive(percentDecoded(b[(i + 1) ..< j])[...])
                        || (value.contains(UInt8(ascii: "%")) && containsSecret(percentDecoded(value))) {
                        if k > j + 1 { ranges.append((j + 1) ..< k) }
                        i = k
                        continue
                    }
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

    /// `%XX` escapes decoded; anything else (a lone `%`) kept as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return Array(bytes) }
        @inline(__always) func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let high = hex(bytes[i + 1]), let low = hex(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}
