import StateHubJSON

/// One NDJSON trace line → a ``TraceRecord``, on StateHubJSON's parser (the package's one JSON
/// layer), with a reason that names the field and what it should hold: `field "step" has the
/// wrong type (expected integer, found 1.5)`, not "is not valid JSON".
///
/// Integers are read from the number's own text (exact up to `UInt64.max` for `time`), found
/// with the tokenizer among the line's top-level members.
enum TraceLineDecoder {
    /// The record on `line`, or the reason it is not one (the wording of
    /// ``TraceFileError/invalidLine(line:reason:)``).
    static func record(_ line: UnsafeBufferPointer<UInt8>) -> Result<TraceRecord, Reason> {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser().parse(line)
        } catch {
            // The text ended before the value did: what a writer killed mid-line leaves.
            let endsEarly = error.offset >= line.count || error.reason == .unterminatedString || error.reason == .unterminatedEscape
            return .failure(Reason(text: "is not valid JSON (column \(error.column): \(error.reason))", endsEarly: endsEarly))
        }
        guard case .object = value else { return .failure(Reason(text: "is not a JSON object")) }
        let numbers = topLevelNumbers(line)
        do throws(Reason) {
            let step = try integer(value, "step", Int.self, numbers)
            guard step >= 0 else { throw Reason(text: "field \"step\" is invalid: must not be negative (got \(step))") }
            let size = try integer(value, "size", Int.self, numbers)
            guard size >= 0 else { throw Reason(text: "field \"size\" is invalid: must not be negative (got \(size))") }
            let directionText = try string(value, "direction")
            guard let direction = TraceDirection(rawValue: directionText) else {
                throw Reason(text: "field \"direction\" is invalid: expected \"web_to_native\" or \"native_to_web\", found \(JSONValue.string(directionText).jsonText().cutForReason())")
            }
            return .success(TraceRecord(
                step: step, time: try integer(value, "time", UInt64.self, numbers), direction: direction,
                channel: try string(value, "channel"), engine: try string(value, "engine"),
                store: isPresent(value, "store") ? try string(value, "store") : nil,
                type: try string(value, "type"),
                seq: isPresent(value, "seq") ? try integer(value, "seq", Int.self, numbers) : nil,
                size: size, message: try string(value, "message"),
                note: isPresent(value, "note") ? try string(value, "note") : nil))
        } catch {
            return .failure(error)
        }
    }

    struct Reason: Error {
        var text: String
        /// The line is JSON cut short (unterminated), not a complete line that is wrong.
        var endsEarly = false
    }

    private static func field(_ object: JSONValue, _ name: String) throws(Reason) -> JSONValue {
        guard let value = object[name] else { throw Reason(text: "lacks field \"\(name)\"") }
        return value
    }

    /// An optional field: absent or `null` is `nil`; anything else must read.
    private static func isPresent(_ object: JSONValue, _ name: String) -> Bool {
        guard let value = object[name] else { return false }
        return !value.isNull
    }

    private static func string(_ object: JSONValue, _ name: String) throws(Reason) -> String {
        let value = try field(object, name)
        guard let text = value.stringValue else { throw wrongType(name, "string", value) }
        return text
    }

    private static func integer<T: FixedWidthInteger>(_ object: JSONValue, _ name: String, _: T.Type, _ texts: [String: String]) throws(Reason) -> T {
        let value = try field(object, name)
        if let text = texts[name], let exact = T(text) { return exact }
        guard let number = value.numberValue, number.rounded() == number, let integer = T(exactly: number) else {
            throw wrongType(name, "integer", value)
        }
        return integer
    }

    /// The text of each number-valued member of the top-level object (the last one of a name).
    private static func topLevelNumbers(_ line: UnsafeBufferPointer<UInt8>) -> [String: String] {
        var tokenizer = JSONTokenizer(bytes: line)
        var result: [String: String] = [:]
        var depth = 0
        var previous: [JSONToken] = []
        while let token = try? tokenizer.next(), token.kind != .end, token.kind != .invalid {
            switch token.kind {
            case .beginObject, .beginArray: depth += 1
            case .endObject, .endArray: depth -= 1
            case .number where depth == 1 && previous.count == 2 && previous[0].kind == .string && previous[1].kind == .colon:
                result[tokenizer.string(of: previous[0])] = String(decoding: UnsafeBufferPointer(rebasing: line[token.range]), as: UTF8.self)
            default: break
            }
            previous.append(token)
            if previous.count > 2 { previous.removeFirst() }
        }
        return result
    }

    private static func wrongType(_ name: String, _ expected: String, _ found: JSONValue) -> Reason {
        if found.isNull { return Reason(text: "field \"\(name)\" is null (expected \(expected))") }
        return Reason(text: "field \"\(name)\" has the wrong type (expected \(expected), found \(found.jsonText().cutForReason()))")
    }
}

private extension String {
    /// At most 40 characters of a value quoted in a reason.
    func cutForReason() -> String { count > 40 ? String(prefix(40)) + "…" : self }
}
