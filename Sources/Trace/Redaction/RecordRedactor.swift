import Synchronization

/// The scanner behind ``TraceRedaction``: hides secrets in every kind of record.
///
/// One iterative pass over the JSON text (an explicit container stack, so nesting depth
/// cannot overflow the stack) notes the byte ranges to replace:
/// 1. the value of every member whose name is a sensitive name, compared ignoring ASCII
///    case (`null` stays `null`);
/// 2. the `value` / `items` of an operation whose `path` passes through a sensitive name
///    (`{"op":"set","path":["token"],"value":"…"}`);
/// 3. the arguments of a `dispatch_action` at the positions configured for its
///    `STORE.ACTION`.
/// Every string value hidden this way (6 characters or more) is remembered, and every
/// later occurrence of it anywhere — an error message that echoes it, a note, a copy
/// inside an oversize or malformed message — is replaced too. Text that is not valid JSON
/// (notes, refused messages) gets a lenient pass: `"name": value` pairs with a sensitive
/// name are replaced where they are found. Last, credentials in URLs (`user:pass@`, and
/// query parameters with a sensitive name) are replaced in any text.
///
/// Complexity: O(n) for the scan and the URL pass, plus O(n · s) for the remembered
/// secrets (s ≤ ``maximumRemembered``), n the message's UTF-8 length.
final class RecordRedactor: Sendable {
    private let keys: [[UInt8]]
    private let arguments: [String: Set<Int>]
    private let remembered = Mutex<[[UInt8]]>([])

    /// Secrets remembered for replacing their later echoes; the oldest is forgotten past this.
    static let maximumRemembered = 256
    /// Shorter values are hidden where they sit but not searched for elsewhere (too common).
    static let shortestRemembered = 6

    init(keys: some Sequence<String>, arguments: [String: Set<Int>]) {
        self.keys = Set(keys.map { $0.lowercased() }).map { Array($0.utf8) }
        self.arguments = arguments
    }

    static let placeholder = Array("\"\(TraceRedactor.placeholder)\"".utf8)
    static let bare = Array(TraceRedactor.placeholder.utf8)

    func redact(type: String, _ message: String) -> String {
        var text = message
        let bytes: [UInt8] = text.withUTF8 { Array($0) }
        var out: [UInt8]
        if let ranges = bytes.withUnsafeBufferPointer({ scan($0, type: type) }) {
            out = replace(bytes, ranges: ranges, learn: true)
        } else {
            out = lenient(bytes)
        }
        out = replaceRemembered(out)
        out = URLCredentials.redact(out, isSensitive: { isSensitive($0) })
        if out == bytes { return message }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Names

    func isSensitive(_ name: some Collection<UInt8>) -> Bool {
        let count = name.count
        for key in keys where key.count == count {
            var equal = true
            for (a, b) in zip(key, name) where a != Self.lower(b) { equal = false; break }
            if equal { return true }
        }
        return false
    }

    @inline(__always) static func lower(_ c: UInt8) -> UInt8 {
        c >= 0x41 && c <= 0x5A ? c | 0x20 : c
    }

    /// The decoded name of a string literal at `range` (quotes excluded), for comparing.
    private func name(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, escaped: Bool) -> [UInt8] {
        if !escaped { return Array(b[range]) }
        return Array((JSONKeyRedactor.unescape(b, range) ?? "").utf8)
    }

    // MARK: - Scan

    private struct Frame {
        var isObject: Bool
        /// The member name this container is the value of (empty for array elements / root).
        var memberName: [UInt8]
        /// Offset of the opening bracket.
        var start: Int
        /// An op object whose `path` has a sensitive step.
        var pathSecret = false
        /// Ranges of this object's `value` / `items` members.
        var opValues: [Range<Int>] = []
    }

    /// Ranges to replace (sorted, not overlapping), or nil for invalid JSON.
    private func scan(_ b: UnsafeBufferPointer<UInt8>, type: String) -> [Range<Int>]? {
        let n = b.count
        var i = 0
        var stack: [Frame] = []
        var ranges: [Range<Int>] = []
        var currentName: [UInt8] = []       // member name of the value about to start
        var redactNext = false
        var pending: (start: Int, depth: Int)? = nil
        var valueStart = 0
        let wantArgs = type == "dispatch_action" && !arguments.isEmpty
        var argsRanges: [Range<Int>] = []
        var storeId: String?
        var action: String?

        @inline(__always) func skipWhitespace() {
            while i < n {
                let c = b[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }
        func readKeyAndColon() -> Bool {
            skipWhitespace()
            guard i < n, b[i] == 0x22 else { return false }
            let start = i + 1
            guard let (end, escaped) = JSONKeyRedactor.scanString(b, from: i) else { return false }
            i = end
            currentName = name(b, start ..< end - 1, escaped: escaped)
            if pending == nil { redactNext = isSensitive(currentName) }
            skipWhitespace()
            guard i < n, b[i] == UInt8(ascii: ":") else { return false }
            i += 1
            return true
        }
        func stringContent(_ range: Range<Int>) -> String? {
            guard range.count >= 2, b[range.lowerBound] == 0x22 else { return nil }
            return JSONKeyRedactor.unescape(b, range.lowerBound + 1 ..< range.upperBound - 1)
        }

        value: while true {
            skipWhitespace()
            guard i < n else { return nil }
            valueStart = i
            let nameOfValue = stack.last?.isObject == true ? currentName : []
            if redactNext {
                // null stays null: nothing to hide.
                if !JSONKeyRedactor.literal(b, at: i, "null") { pending = (i, stack.count) }
                redactNext = false
            }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                skipWhitespace()
                if i < n && b[i] == UInt8(ascii: "}") {
                    i += 1
                } else {
                    stack.append(Frame(isObject: true, memberName: nameOfValue, start: valueStart))
                    guard readKeyAndColon() else { return nil }
                    continue value
                }
            case UInt8(ascii: "["):
                i += 1
                skipWhitespace()
                if i < n && b[i] == UInt8(ascii: "]") {
                    i += 1
                } else {
                    stack.append(Frame(isObject: false, memberName: nameOfValue, start: valueStart))
                    continue value
                }
            case 0x22:
                guard let (end, escaped) = JSONKeyRedactor.scanString(b, from: i) else { return nil }
                // A string step of a `path` array: does the path pass through a sensitive name?
                if let top = stack.last, !top.isObject, top.memberName == Self.pathName, stack.count >= 2,
                   isSensitive(name(b, i + 1 ..< end - 1, escaped: escaped)) {
                    stack[stack.count - 2].pathSecret = true
                }
                i = end
            case UInt8(ascii: "t"):
                guard JSONKeyRedactor.literal(b, at: i, "true") else { return nil }
                i += 4
            case UInt8(ascii: "f"):
                guard JSONKeyRedactor.literal(b, at: i, "false") else { return nil }
                i += 5
            case UInt8(ascii: "n"):
                guard JSONKeyRedactor.literal(b, at: i, "null") else { return nil }
                i += 4
            default:
                guard let end = JSONKeyRedactor.scanNumber(b, from: i) else { return nil }
                i = end
            }
            var justEnded = valueStart ..< i
            var endedName = nameOfValue
            while true {
                if let p = pending, p.depth == stack.count {
                    ranges.append(p.start ..< i)
                    pending = nil
                }
                // Note what the value that just ended is, for its container.
                if let top = stack.last {
                    if top.isObject {
                        if endedName == Self.valueName || endedName == Self.itemsName { stack[stack.count - 1].opValues.append(justEnded) }
                        if wantArgs, stack.count == 1, endedName == Self.storeIdName { storeId = stringContent(justEnded) }
                        if wantArgs, stack.count == 2, endedName == Self.actionName, top.memberName == Self.payloadName { action = stringContent(justEnded) }
                    } else if wantArgs, stack.count == 3, top.memberName == Self.argsName {
                        argsRanges.append(justEnded)
                    }
                }
                skipWhitespace()
                guard let top = stack.last else {
                    guard i == n else { return nil }
                    if wantArgs, let storeId, let action, let positions = arguments["\(storeId).\(action)"] {
                        for (index, range) in argsRanges.enumerated() where positions.contains(index) { ranges.append(range) }
                    }
                    return Self.normalise(ranges)
                }
                guard i < n else { return nil }
                let c = b[i]
                i += 1
                if c == UInt8(ascii: ",") {
                    if top.isObject {
                        guard readKeyAndColon() else { return nil }
                    }
                    continue value
                } else if c == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    let closed = stack.removeLast()
                    if closed.pathSecret { ranges += closed.opValues }
                    justEnded = closed.start ..< i
                    endedName = closed.memberName
                } else {
                    return nil
                }
            }
        }
    }

    static let pathName = Array("path".utf8)
    static let valueName = Array("value".utf8)
    static let itemsName = Array("items".utf8)
    static let storeIdName = Array("storeId".utf8)
    static let actionName = Array("action".utf8)
    static let payloadName = Array("payload".utf8)
    static let argsName = Array("args".utf8)

    /// Sorted, with ranges inside others dropped.
    static func normalise(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound) }) {
            if let last = result.last, range.lowerBound < last.upperBound {
                if range.upperBound > last.upperBound { result[result.count - 1] = last.lowerBound ..< range.upperBound }
                continue
            }
            result.append(range)
        }
        return result
    }

    // MARK: - Replacing

    private func replace(_ bytes: [UInt8], ranges: [Range<Int>], learn: Bool) -> [UInt8] {
        guard !ranges.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var last = 0
        for range in ranges {
            if learn { remember(bytes[range]) }
            out.append(contentsOf: bytes[last ..< range.lowerBound])
            out.append(contentsOf: Self.placeholder)
            last = range.upperBound
        }
        out.append(contentsOf: bytes[last...])
        return out
    }

    /// Remembers the strings inside a hidden value (a string literal, or the string
    /// values inside a hidden object or array), as they are written in JSON.
    private func remember(_ value: ArraySlice<UInt8>) {
        var found: [[UInt8]] = []
        var i = value.startIndex
        while i < value.endIndex {
            guard value[i] == 0x22 else { i += 1; continue }
            var j = i + 1
            while j < value.endIndex, value[j] != 0x22 { j += value[j] == 0x5C ? 2 : 1 }
            let content = Array(value[(i + 1) ..< min(j, value.endIndex)])
            if content.count >= Self.shortestRemembered, content != Self.bare { found.append(content) }
            i = j + 1
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

    /// Text that is not valid JSON: replaces the value after every `"name":` whose name is
    /// sensitive (a string literal up to its closing quote, or anything up to `,` `}` `]`).
    private func lenient(_ b: [UInt8]) -> [UInt8] {
        var ranges: [Range<Int>] = []
        var i = 0
        let n = b.count
        while i < n {
            guard b[i] == 0x22 else { i += 1; continue }
            var j = i + 1
            while j < n, b[j] != 0x22 { j += b[j] == 0x5C ? 2 : 1 }
            guard j < n else { break }
            let nameRange = (i + 1) ..< j
            var k = j + 1
            while k < n, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
            guard k < n, b[k] == UInt8(ascii: ":"), isSensitive(b[nameRange]) else { i = j + 1; continue }
            k += 1
            while k < n, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
            let start = k
            if k < n, b[k] == 0x22 {
                k += 1
                while k < n, b[k] != 0x22 { k += b[k] == 0x5C ? 2 : 1 }
                k = min(k + 1, n)
            } else {
                while k < n, b[k] != UInt8(ascii: ","), b[k] != UInt8(ascii: "}"), b[k] != UInt8(ascii: "]") { k += 1 }
            }
            if start < k, !b[start ..< k].elementsEqual("null".utf8) { ranges.append(start ..< k) }
            i = k
        }
        return replace(b, ranges: ranges, learn: true)
    }
}
