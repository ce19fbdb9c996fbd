import StateHubJSON
import Synchronization

/// The redactor behind ``TraceRedaction``: hides secrets in every kind of record.
///
/// 1. ``RedactionScan`` (one pass over the JSON text on StateHubJSON's tokenizer) finds the
///    values under sensitive names (any case; `null` stays), the `value` / `items` of ops
///    whose `path` passes through one, and configured `dispatch_action` arguments.
/// 2. Every string hidden that way (6 characters or more) is remembered, and every later
///    occurrence of it anywhere — an error message that echoes it, a note, a copy inside an
///    oversize or malformed message — is replaced too.
/// 3. Text that is not valid JSON (notes, refused messages) gets a lenient pass on the same
///    tokenizer: `"name": value` with a sensitive name, wherever the tokens line up.
/// 4. Credentials in URLs (`user:pass@`, query parameters with a sensitive name).
///
/// Complexity: O(n) for steps 1, 3 and 4, plus O(n · s) for step 2 (s ≤ ``maximumRemembered``),
/// n the message's UTF-8 length.
final class RecordRedactor: Sendable {
    private let rules: RedactionScan.Rules
    private let remembered = Mutex<[[UInt8]]>([])

    /// Secrets remembered for replacing their later echoes; the oldest is forgotten past this.
    static let maximumRemembered = 256
    /// Shorter values are hidden where they sit but not searched for elsewhere (too common).
    static let shortestRemembered = 6

    static let placeholder = Array("\"\(TraceRedactor.placeholder)\"".utf8)
    static let bare = Array(TraceRedactor.placeholder.utf8)

    init(keys: some Sequence<String>, arguments: [String: Set<Int>]) {
        rules = RedactionScan.Rules(names: Set(keys.map { $0.lowercased() }).map { Array($0.utf8) }, ignoreCase: true,
                                    keepNull: true, opPaths: true, arguments: arguments)
    }

    func isSensitive(_ name: some Collection<UInt8>) -> Bool { RedactionScan.matches(name, rules) }

    func redact(type: String, _ message: String) -> String {
        var text = message
        var out: [UInt8] = text.withUTF8 { bytes in
            let ranges = RedactionScan.ranges(bytes, rules: rules, isDispatch: type == "dispatch_action") ?? lenientRanges(bytes)
            guard !ranges.isEmpty else { return Array(bytes) }
            for range in ranges { remember(UnsafeBufferPointer(rebasing: bytes[range])) }
            return RedactionScan.replace(bytes, ranges, with: Self.placeholder)
        }
        out = replaceRemembered(out)
        out = URLCredentials.redact(out, isSensitive: { isSensitive($0) })
        let changed = out.withUnsafeBufferPointer { o in text.withUTF8 { !o.elementsEqual($0) } }
        return changed ? String(decoding: out, as: UTF8.self) : message
    }

    /// Text that is not JSON: the value token after every `"name" :` with a sensitive name,
    /// found by tokenizing from each point where a token can start (a byte that starts
    /// none is skipped).
    private func lenientRanges(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var tokenizer = JSONTokenizer(bytes: b)
        var previous: [JSONToken] = []   // the last two tokens
        while tokenizer.position < b.count {
            let start = tokenizer.position
            guard let token = try? tokenizer.next(), token.kind != .invalid else {
                tokenizer.position = start + 1
                previous.removeAll()
                continue
            }
            if token.kind == .end { break }
            if previous.count == 2, previous[0].kind == .string, previous[1].kind == .colon,
               token.kind == .string || token.kind == .number || token.kind == .true || token.kind == .false,
               isSensitive(RedactionScan.text(previous[0], tokenizer)) {
                ranges.append(token.range)
            }
            previous.append(token)
            if previous.count > 2 { previous.removeFirst() }
        }
        return ranges
    }

    /// Remembers the strings inside a hidden value, as written in JSON (escapes kept).
    private func remember(_ value: UnsafeBufferPointer<UInt8>) {
        var found: [[UInt8]] = []
        var tokenizer = JSONTokenizer(bytes: value)
        while let token = try? tokenizer.next(), token.kind != .end, token.kind != .invalid {
            guard token.kind == .string, token.range.count - 2 >= Self.shortestRemembered else { continue }
            found.append(Array(value[(token.range.lowerBound + 1) ..< (token.range.upperBound - 1)]))
        }
        guard !found.isEmpty else { return }
        remembered.withLock { list in
            for secret in found where !list.contains(secret) {
                if list.count >= Self.maximumRemembered { list.removeFirst() }
                list.append(secret)
            }
        }
    }

    private func replaceRemembered(_ bytes: [UInt8]) -> [UInt8] {
        let secrets = remembered.withLock { $0 }
        guard !secrets.isEmpty else { return bytes }
        var out = bytes
        for secret in secrets { out = Self.replaceAll(secret, in: out, with: Self.bare) }
        return out
    }

    static func replaceAll(_ needle: [UInt8], in haystack: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        guard let first = needle.first, haystack.count >= needle.count else { return haystack }
        var out: [UInt8] = []
        var i = 0
        var last = 0
        var changed = false
        let end = haystack.count - needle.count
        while i <= end {
            if haystack[i] == first, haystack[i ..< i + needle.count].elementsEqual(needle) {
                if !changed { out.reserveCapacity(haystack.count); changed = true }
                out.append(contentsOf: haystack[last ..< i])
                out.append(contentsOf: replacement)
                i += needle.count
                last = i
            } else {
                i += 1
            }
        }
        guard changed else { return haystack }
        out.append(contentsOf: haystack[last...])
        return out
    }
}
