/// Hides secrets written as prose inside any text — an error message, an exception's text,
/// a note, a string inside a JSON message: `token=…`, `password: …`, `apiKey = …` (a
/// sensitive name, as a whole word, then `=` or `:`), and the credentials after an HTTP
/// authentication scheme (`Bearer …`, `Basic …`, so `Authorization: Bearer …` loses the
/// credentials, not only the word "Bearer").
///
/// The value is the run of bytes up to a space, a quote, a backslash (a JSON escape), `,`,
/// `;`, `&`, `)`, `]`, `}`, `<`, `>` or a control byte; a value that opens with a quote
/// (`password="…"`, or `\"` inside JSON) runs to its closing quote. Replacing it with
/// `[redacted]` keeps a JSON text valid, since none of those bytes are inside the value.
///
/// `Bearer` is the only scheme recognised without a name before it: "basic" and "digest" are
/// ordinary words in prose.
///
/// Complexity: O(n × k) worst case, n the text's length and k the sensitive names; names are
/// only tried at a word start whose first letter some name has.
struct FreeTextSecrets: Sendable {
    /// Authentication schemes whose next word is a credential (compared ignoring case).
    static let schemes: [[UInt8]] = ["bearer", "basic", "digest", "negotiate"].map { Array($0.utf8) }
    static let bearer: [[UInt8]] = [Array("bearer".utf8)]

    private let names: [[UInt8]]
    private let first: [Bool]

    /// `names`: lower-cased UTF-8.
    init(names: [[UInt8]]) {
        self.names = names.filter { !$0.isEmpty }
        var first = [Bool](repeating: false, count: 256)
        for name in self.names + Self.bearer { first[Int(name[0])] = true }
        self.first = first
    }

    /// The ranges of `b` to hide, sorted, not overlapping.
    func ranges(_ b: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let n = b.count
        var i = 0
        while i < n {
            let c = RedactionScan.lower(b[i])
            guard first[Int(c)], i == 0 || !Self.isWord(b[i - 1]) else { i += 1; continue }
            // `NAME = value` / `NAME: value`.
            if let end = Self.matchWord(b, at: i, names), let value = Self.valueAfterSeparator(b, end) {
                let (range, next) = Self.extendedByScheme(b, value)
                if !range.isEmpty, !Self.isPlaceholder(b, range) { ranges.append(range) }
                i = max(next, i + 1)
                continue
            }
            // `Bearer value` on its own.
            if let end = Self.matchWord(b, at: i, Self.bearer), end < n, b[end] == 0x20 {
                var start = end
                while start < n, b[start] == 0x20 { start += 1 }
                let range = Self.valueRange(b, start)
                if range.count >= 4, !Self.isPlaceholder(b, range) { ranges.append(range) }
                i = max(range.upperBound, i + 1)
                continue
            }
            i += 1
        }
        return ranges
    }

    /// An earlier step's `[redacted]` (without its closing bracket, which stops a value).
    private static func isPlaceholder(_ b: [UInt8], _ range: Range<Int>) -> Bool {
        let bare = RecordRedactor.bare
        return range.lowerBound + bare.count <= b.count && b[range.lowerBound ..< range.lowerBound + bare.count].elementsEqual(bare)
    }

    @inline(__always) static func isWord(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D || c >= 0x80
    }

    /// The end of the name of `words` written at `i` (any case) that ends a word.
    private static func matchWord(_ b: [UInt8], at i: Int, _ words: [[UInt8]]) -> Int? {
        for word in words where i + word.count <= b.count {
            var equal = true
            for (k, w) in word.enumerated() where RedactionScan.lower(b[i + k]) != w { equal = false; break }
            let end = i + word.count
            if equal, end == b.count || !isWord(b[end]) { return end }
        }
        return nil
    }

    /// After a name: spaces, `=` or `:`, spaces; the start of the value. An escaped quote
    /// right after the name (`\"token\":\"…\"`, JSON text inside a JSON string) is skipped.
    private static func valueAfterSeparator(_ b: [UInt8], _ end: Int) -> Int? {
        var j = end
        if j + 1 < b.count, b[j] == 0x5C, b[j + 1] == 0x22 { j += 2 }
        while j < b.count, b[j] == 0x20 { j += 1 }
        guard j < b.count, b[j] == UInt8(ascii: "=") || b[j] == UInt8(ascii: ":") else { return nil }
        j += 1
        // `://` is a URL scheme, not a separator (URLCredentials looks at URLs).
        if j < b.count, b[j] == UInt8(ascii: "/") { return nil }
        while j < b.count, b[j] == 0x20 { j += 1 }
        return j < b.count ? j : nil
    }

    /// The value at `start`; a scheme word (`Bearer`) takes the credentials after it too.
    private static func extendedByScheme(_ b: [UInt8], _ start: Int) -> (Range<Int>, Int) {
        let range = valueRange(b, start)
        if matchWord(b, at: start, schemes) == range.upperBound, range.upperBound < b.count, b[range.upperBound] == 0x20 {
            var next = range.upperBound
            while next < b.count, b[next] == 0x20 { next += 1 }
            let credentials = valueRange(b, next)
            if !credentials.isEmpty { return (credentials, credentials.upperBound) }
        }
        return (range, range.upperBound)
    }

    /// The value's bytes: up to a stop byte, or inside quotes when it opens with one.
    private static func valueRange(_ b: [UInt8], _ start: Int) -> Range<Int> {
        let n = b.count
        var s = start
        var quote: UInt8?
        if s + 1 < n, b[s] == 0x5C, b[s + 1] == 0x22 { s += 2; quote = 0x5C }          // \" inside JSON text
        else if s < n, b[s] == 0x22 || b[s] == 0x27 { quote = b[s]; s += 1 }
        var e = s
        if let quote {
            while e < n, b[e] != quote, b[e] >= 0x20 { e += 1 }
            return s ..< e
        }
        while e < n, !stops(b[e]) { e += 1 }
        return s ..< e
    }

    @inline(__always) private static func stops(_ c: UInt8) -> Bool {
        switch c {
        case 0x20, 0x22, 0x27, 0x5C, 0x2C, 0x3B, 0x26, 0x29, 0x5D, 0x7D, 0x3C, 0x3E: true
        default: c < 0x20
        }
    }
}
