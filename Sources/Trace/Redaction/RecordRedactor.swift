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
/// 5. Secrets in prose (``FreeTextSecrets``): `token=…`, `password: …`, `Bearer …` in an
///    error message, an exception's text or a note, inside a JSON string or not; each such
///    value is remembered as in step 2.
///
/// Complexity: O(n) expected for steps 1–4 and O(n × names) for step 5, n the message's UTF-8 length (step 2 is
/// one pass with a first-byte table and a four-byte hash index of the remembered values).
final class RecordRedactor: Sendable {
    private let rules: RedactionScan.Rules
    private let prose: FreeTextSecrets
    private let remembered = Mutex(Memory())
    /// Where late secrets are reported (`TraceRedaction.redactor(reporting:)`), if anywhere.
    private let report: RedactionReport?
    /// Strings of 6 characters or more that positional `dispatch_action` arguments carried in
    /// clear (as written in JSON), with the argument's `STORE.ACTION:INDEX`; kept only when
    /// reporting, the newest `maximumClearArguments`.
    private let clearArguments = Mutex<(order: [[UInt8]], spec: [[UInt8]: String])>(([], [:]))
    static let maximumClearArguments = 1_024
    /// Argument positions learned from the pages' `actionParameters` (docs/PROTOCOL.md A.5.1):
    /// a parameter with a sensitive name is hidden by default (``learnParameters(_:)``).
    private let learned = Mutex<(arguments: [String: Set<Int>], from: [String: Int])>(([:], [:]))

    /// Hidden values seen so far, indexed for one pass over a message: by their first byte
    /// (a quick "no" for most bytes), then by their first four bytes.
    struct Memory: Sendable {
        var list: [[UInt8]] = []
        var firstBytes = [Bool](repeating: false, count: 256)
        var byPrefix: [UInt32: [Int]] = [:]

        static func prefix(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
            UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
        }

        mutating func rebuildIndex() {
            firstBytes = [Bool](repeating: false, count: 256)
            byPrefix = [:]
            for (index, secret) in list.enumerated() {
                firstBytes[Int(secret[0])] = true
                let key = secret.withUnsafeBufferPointer { Self.prefix($0, 0) }
                byPrefix[key, default: []].append(index)
            }
            // Longest first, so a secret that contains another is replaced whole.
            for key in byPrefix.keys { byPrefix[key]?.sort { list[$0].count > list[$1].count } }
        }
    }

    /// Secrets remembered for replacing their later echoes; the oldest is forgotten past this.
    static let maximumRemembered = 256
    /// Shorter values are hidden where they sit but not searched for elsewhere (too common).
    static let shortestRemembered = 6

    static let placeholder = Array("\"\(TraceRedactor.placeholder)\"".utf8)
    static let bare = Array(TraceRedactor.placeholder.utf8)

    init(keys: some Sequence<String>, arguments: [String: Set<Int>], report: RedactionReport?) {
        self.report = report
        rules = RedactionScan.Rules(names: Set(keys.map { $0.lowercased() }).map { Array($0.utf8) }, ignoreCase: true,
                                    keepNull: true, opPaths: true, arguments: arguments)
        prose = FreeTextSecrets(names: rules.names)
    }

    func isSensitive(_ name: some Collection<UInt8>) -> Bool { RedactionScan.matches(name, rules) }

    func redact(type: String, _ message: String) -> String {
        var text = message
        if type == "sync_state" { learnParameters(text) }
        let rules = type == "dispatch_action" ? rulesWithLearnedArguments() : rules
        var out: [UInt8] = text.withUTF8 { bytes in
            let ranges = RedactionScan.ranges(bytes, rules: rules, isDispatch: type == "dispatch_action") ?? lenientRanges(bytes)
            guard !ranges.isEmpty else { return Array(bytes) }
            var found: [[UInt8]] = []
            for range in ranges { collect(UnsafeBufferPointer(rebasing: bytes[range]), into: &found) }
            remember(found)
            return RedactionScan.replace(bytes, ranges, with: Self.placeholder)
        }
        out = replaceRemembered(out)
        out = URLCredentials.redact(out, isSensitive: { isSensitive($0) }, containsSecret: { containsSecret($0) })
        out = redactProse(out)
        if report != nil, type == "dispatch_action" { noteClearArguments(out, rules: rules) }
        let changed = out.withUnsafeBufferPointer { o in text.withUTF8 { !o.elementsEqual($0) } }
        return changed ? String(decoding: out, as: UTF8.self) : message
    }

    /// Text that is not JSON: the value token after every `"name" :` with a sensitive name,
    /// found by tokenizing from each point where a token can start (a byte that starts
    /// none is skipped). The op-path rule holds here too: in an object whose `"path"` array
    /// names a sensitive key, the `"value"` / `"items"` (a scalar, or a container up to its end,
    /// or to the end of the text when it never closes) is hidden, before or after the path. A
    /// refused message (too deep, cut, trailing bytes) is not JSON and went through here.
    private func lenientRanges(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var tokenizer = JSONTokenizer(bytes: b)
        var previous: [JSONToken] = []   // the last two tokens
        /// Inside a `"path": [` array, and whether it named a sensitive key.
        var inPath = false
        var pathSecret = false
        /// The `value` / `items` of the object being read, when its path is not known yet.
        var opValues: [Range<Int>] = []
        while tokenizer.position < b.count {
            let start = tokenizer.position
            guard let token = try? tokenizer.next(), token.kind != .invalid else {
                tokenizer.position = start + 1
                previous.removeAll()
                continue
            }
            if token.kind == .end { break }
            let afterName = previous.count == 2 && previous[0].kind == .string && previous[1].kind == .colon
            let name = afterName ? RedactionScan.text(previous[0], tokenizer) : []
            if afterName, token.kind == .string || token.kind == .number || token.kind == .true || token.kind == .false,
               isSensitive(name) {
                ranges.append(token.range)
            }
            if inPath {
                if token.kind == .endArray { inPath = false } else if token.kind == .string, isSensitive(RedactionScan.text(token, tokenizer)) {
                    pathSecret = true
                    ranges += opValues
                    opValues = []
                }
            } else if afterName, token.kind == .beginArray, name == Self.pathName {
                inPath = true
            } else if afterName, name == Self.valueName || name == Self.itemsName, token.kind != .null {
                let range = token.kind == .beginObject || token.kind == .beginArray ? Self.containerRange(from: token, &tokenizer) : token.range
                if pathSecret { ranges.append(range) } else { opValues.append(range) }
            } else if token.kind == .beginObject || token.kind == .endObject {
                pathSecret = false
                opValues = []
            }
            previous.append(token)
            if previous.count > 2 { previous.removeFirst() }
        }
        // A value found before its path is added when the path is read: put back in order.
        ranges.sort { $0.lowerBound < $1.lowerBound }
        return ranges
    }

    static let pathName = Array("path".utf8)
    static let valueName = Array("value".utf8)
    static let itemsName = Array("items".utf8)

    /// From a container's opening token to its closing one, or to the end of the text.
    private static func containerRange(from open: JSONToken, _ tokenizer: inout JSONTokenizer) -> Range<Int> {
        var depth = 1
        while depth > 0 {
            let start = tokenizer.position
            guard let token = try? tokenizer.next(), token.kind != .invalid else {
                if start >= tokenizer.bytes.count { break }
                tokenizer.position = start + 1
                continue
            }
            if token.kind == .end { break }
            if token.kind == .beginObject || token.kind == .beginArray { depth += 1 }
            if token.kind == .endObject || token.kind == .endArray { depth -= 1 }
        }
        return open.range.lowerBound ..< min(tokenizer.position, tokenizer.bytes.count)
    }

    /// Whether `text` (a URL parameter's value, percent-decoded) holds something steps 1–5
    /// would hide: then the whole parameter value is hidden.
    private func containsSecret(_ text: [UInt8]) -> Bool {
        let found = text.withUnsafeBufferPointer { b in !(RedactionScan.ranges(b, rules: rules, isDispatch: false) ?? lenientRanges(b)).isEmpty }
        if found || !prose.ranges(text).isEmpty { return true }
        return URLCredentials.redact(text, isSensitive: { isSensitive($0) }) != text
    }

    /// Step 5: values written in prose, hidden and remembered.
    private func redactProse(_ bytes: [UInt8]) -> [UInt8] {
        let ranges = prose.ranges(bytes)
        guard !ranges.isEmpty else { return bytes }
        remember(ranges.filter { $0.count >= Self.shortestRemembered }.map { Array(bytes[$0]) })
        return bytes.withUnsafeBufferPointer { RedactionScan.replace($0, ranges, with: Self.bare) }
    }

    /// The strings inside a hidden value, as written in JSON (escapes kept).
    private func collect(_ value: UnsafeBufferPointer<UInt8>, into found: inout [[UInt8]]) {
        // Values only: a member name, or the tag of a tagged value (`"$type":"undefined"`,
        // `"Map"`), is structure, and remembering it would hide that word in every later record.
        var tokenizer = JSONTokenizer(bytes: value)
        var candidate: JSONToken?
        var afterTypeKey = false
        var previous: JSONToken?
        while let token = try? tokenizer.next(), token.kind != .end, token.kind != .invalid {
            if token.kind == .colon {
                afterTypeKey = previous.map { $0.kind == .string && tokenizer.string(of: $0) == "$type" } ?? false
                candidate = nil
            } else {
                if let kept = candidate { found.append(Array(value[(kept.range.lowerBound + 1) ..< (kept.range.upperBound - 1)])) }
                candidate = token.kind == .string && token.range.count - 2 >= Self.shortestRemembered && !afterTypeKey ? token : nil
                afterTypeKey = false
            }
            previous = token
        }
        if let kept = candidate { found.append(Array(value[(kept.range.lowerBound + 1) ..< (kept.range.upperBound - 1)])) }
    }

    /// Remembers the strings a dispatch's positional arguments carry as written (after
    /// redaction: what is hidden is not in clear), so a later secret can be traced back.
    private func noteClearArguments(_ bytes: [UInt8], rules: RedactionScan.Rules) {
        guard let message = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              let store = message["storeId"]?.stringValue, let action = message["payload"]?["action"]?.stringValue,
              case .array(let args)? = message["payload"]?["args"] else { return }
        let hidden = rules.arguments["\(store).\(action)"] ?? [], from = rules.argumentsFrom["\(store).\(action)"] ?? .max
        var noted: [([UInt8], String)] = []
        for (index, argument) in args.enumerated() where !hidden.contains(index) && index < from {
            var pending = [argument]
            while let value = pending.popLast() {
                switch value {
                case .string(let text) where text.utf8.count >= Self.shortestRemembered && text != TraceRedactor.placeholder:
                    noted.append((Array(JSONValue.string(text).jsonText().utf8.dropFirst().dropLast()), "\(store).\(action):\(index)"))
                case .array(let elements): pending += elements
                case .object(let members): pending += members.values
                default: break
                }
            }
        }
        guard !noted.isEmpty else { return }
        clearArguments.withLock { memory in
            for (text, spec) in noted where memory.spec[text] == nil {
                if memory.order.count >= Self.maximumClearArguments { memory.spec[memory.order.removeFirst()] = nil }
                memory.order.append(text)
                memory.spec[text] = spec
            }
        }
    }

    /// Remembers the values hidden in one message: one lock, one index rebuild.
    private func remember(_ found: [[UInt8]]) {
        guard !found.isEmpty else { return }
        if let report {
            let specs = clearArguments.withLock { memory in found.compactMap { memory.spec[$0] } }
            for spec in specs { report.add(spec) }
        }
        remembered.withLock { memory in
            var known = Set(memory.list)
            var changed = false
            for secret in found.suffix(Self.maximumRemembered) where !known.contains(secret) {
                if memory.list.count >= Self.maximumRemembered { known.remove(memory.list.removeFirst()) }
                memory.list.append(secret)
                known.insert(secret)
                changed = true
            }
            if changed { memory.rebuildIndex() }
        }
    }

    /// Every occurrence of a remembered value replaced, in one pass: O(n) expected (a
    /// first-byte table, then a hash lookup of four bytes where it says yes).
    private func replaceRemembered(_ bytes: [UInt8]) -> [UInt8] {
        let memory = remembered.withLock { $0 }
        guard !memory.list.isEmpty, bytes.count >= Self.shortestRemembered else { return bytes }
        return bytes.withUnsafeBufferPointer { b -> [UInt8] in
            var out: [UInt8] = []
            var changed = false
            var last = 0
            var i = 0
            let end = b.count - 4
            while i <= end {
                guard memory.firstBytes[Int(b[i])], let candidates = memory.byPrefix[Memory.prefix(b, i)] else { i += 1; continue }
                var matched = 0
                for index in candidates {
                    let secret = memory.list[index]
                    if i + secret.count <= b.count, UnsafeBufferPointer(rebasing: b[i ..< i + secret.count]).elementsEqual(secret) {
                        matched = secret.count
                        break
                    }
                }
                guard matched > 0 else { i += 1; continue }
                if !changed { out.reserveCapacity(b.count); changed = true }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last ..< i]))
                out.append(contentsOf: Self.bare)
                i += matched
                last = i
            }
            guard changed else { return bytes }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[last...]))
            return out
        }
    }

    // MARK: Parameters named by the page

    static let payloadKey = Array(#""payload":"#.utf8)
    static let actionParametersMarker = Array(#""payload":{"actionParameters":"#.utf8)

    /// Reads a `sync_state created`'s `actionParameters` (docs/PROTOCOL.md A.5.1, the first
    /// member of `payload`): each parameter with a sensitive name (`password`, a rest
    /// `...credentials`) is hidden in that action's later `dispatch_action` messages. Costs a
    /// search up to the envelope's `"payload":` (the envelope before it holds only scalars, so
    /// the first such text is the envelope's); only the member itself is parsed.
    private func learnParameters(_ message: String) {
        var text = message
        let found: (store: String, member: JSONValue)? = text.withUTF8 { b in
            guard let start = Self.firstIndex(of: Self.payloadKey, in: b), b.count - start >= Self.actionParametersMarker.count,
                  UnsafeBufferPointer(rebasing: b[start ..< start + Self.actionParametersMarker.count]).elementsEqual(Self.actionParametersMarker)
            else { return nil }
            // The envelope before `payload` holds only scalars: with `null` for the payload it is a whole object.
            let envelope = String(decoding: UnsafeBufferPointer(rebasing: b[..<(start + 10)]), as: UTF8.self) + "null}"
            guard let store = (try? JSONValue(parsing: envelope))?["storeId"]?.stringValue else { return nil }
            let valueStart = start + Self.actionParametersMarker.count
            var tokenizer = JSONTokenizer(bytes: UnsafeBufferPointer(rebasing: b[valueStart...]))
            var depth = 0
            repeat {
                guard let token = try? tokenizer.next(), token.kind != .end, token.kind != .invalid else { return nil }
                if token.kind == .beginObject || token.kind == .beginArray { depth += 1 }
                if token.kind == .endObject || token.kind == .endArray { depth -= 1 }
            } while depth > 0
            let slice = UnsafeBufferPointer(rebasing: b[valueStart ..< (valueStart + tokenizer.position)])
            guard let member = try? JSONValue(parsing: String(decoding: slice, as: UTF8.self)) else { return nil }
            return (store, member)
        }
        guard let found, case .object(let actions) = found.member else { return }
        var positions: [String: Set<Int>] = [:]
        var from: [String: Int] = [:]
        for (action, names) in actions {
            guard case .array(let names) = names else { continue }
            let key = "\(found.store).\(action.string)"
            for (index, name) in names.enumerated() {
                guard let name = name.stringValue else { continue }
                let rest = name.hasPrefix("...")
                guard isSensitive(Array((rest ? String(name.dropFirst(3)) : name).lowercased().utf8)) else { continue }
                if rest { from[key] = index } else { positions[key, default: []].insert(index) }
            }
        }
        guard !positions.isEmpty || !from.isEmpty else { return }
        learned.withLock { learned in
            learned.arguments.merge(positions) { $0.union($1) }
            learned.from.merge(from) { min($0, $1) }
        }
    }

    /// The rules with the positions learned from the pages added to the configured ones.
    private func rulesWithLearnedArguments() -> RedactionScan.Rules {
        let learned = learned.withLock { $0 }
        guard !learned.arguments.isEmpty || !learned.from.isEmpty else { return rules }
        var merged = rules
        merged.arguments.merge(learned.arguments) { $0.union($1) }
        merged.argumentsFrom.merge(learned.from) { min($0, $1) }
        return merged
    }

    private static func firstIndex(of needle: [UInt8], in b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count >= needle.count else { return nil }
        var i = 0
        while i <= b.count - needle.count {
            if b[i] == needle[0], UnsafeBufferPointer(rebasing: b[i ..< i + needle.count]).elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
