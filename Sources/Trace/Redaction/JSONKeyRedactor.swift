/// The redactor behind ``TraceRedactor/jsonKeys(_:)``: names compared exactly (escapes
/// decoded), every value under them hidden, `null` included; on ``RedactionScan``.
/// Invariant: the output is valid JSON whenever the input is; invalid input is returned
/// unchanged. O(n) time in the message's UTF-8 length.
struct JSONKeyRedactor: Sendable {
    private let rules: RedactionScan.Rules

    init(keys: some Sequence<String>) {
        rules = RedactionScan.Rules(names: Set(keys).map { Array($0.utf8) }, ignoreCase: false, keepNull: false,
                                    opPaths: false, arguments: [:])
    }

    func redact(_ message: String) -> String {
        if rules.names.isEmpty { return message }
        var text = message
        return text.withUTF8 { bytes in
            guard let ranges = RedactionScan.ranges(bytes, rules: rules, isDispatch: false), !ranges.isEmpty else { return message }
            return String(decoding: RedactionScan.replace(bytes, ranges, with: RecordRedactor.placeholder), as: UTF8.self)
        }
    }
}
