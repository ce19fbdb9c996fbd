import Foundation

/// Formats records as a readable timeline, for `statehub trace show FILE`.
///
/// One line per record, columns aligned across the records given:
///
/// ```
/// #12  +3.201 ms  web→native  cart    apply_mutation seq 7            (184 B)
/// #13  +3.260 ms  native→web  bridge  reply c1 ok                      (71 B)
/// ```
///
/// Columns: step; time relative to `origin` (default: the first record's time) in
/// milliseconds with microsecond precision; direction; the engine (only when the
/// records span more than one engine); the store, or the channel name for records
/// without a store; the type, followed by `seq N` when present and, on the
/// `bridge` channel, a short summary read from the message (action, event, call
/// id, error code); the size as it crossed. A record's ``TraceRecord/note`` follows
/// on its line after `!`. The `describe` hook's text, when non-nil, is printed under
/// the line, each of its lines indented by six spaces.
///
/// Complexity: O(total message bytes of `bridge` records + records); the formatter
/// never fails, whatever the records hold.
public enum TraceTimeline {
    /// The timeline lines (no trailing newlines); see the type's documentation.
    public static func lines(
        for records: [TraceRecord],
        origin: UInt64? = nil,
        describe: (TraceRecord) -> String? = { _ in nil }
    ) -> [String] {
        guard let first = records.first else { return [] }
        let origin = origin ?? first.time
        let showEngine = Set(records.lazy.map(\.engine)).count > 1
        let rows = records.map { row(for: $0, origin: origin, showEngine: showEngine) }
        let widths = (0..<6).map { column in rows.map { $0.cells[column].count }.max() ?? 0 }
        var result: [String] = []
        result.reserveCapacity(records.count)
        for (record, row) in zip(records, rows) {
            var cells: [String] = [
                pad(row.cells[0], to: widths[0]),
                pad(row.cells[1], to: widths[1], alignRight: true),
                pad(row.cells[2], to: widths[2]),
            ]
            if showEngine { cells.append(pad(row.cells[3], to: widths[3])) }
            cells.append(pad(row.cells[4], to: widths[4]))
            cells.append(pad(row.cells[5], to: widths[5]))
            var line = cells.joined(separator: "  ") + "  " + row.size
            if let note = record.note { line += "  ! " + note }
            result.append(line)
            if let description = describe(record) {
                for part in description.split(separator: "\n", omittingEmptySubsequences: false) {
                    result.append("      " + part)
                }
            }
        }
        return result
    }

    /// The whole timeline as text, one line per entry, ending with a newline (empty for no records).
    public static func render(
        _ records: [TraceRecord],
        origin: UInt64? = nil,
        describe: (TraceRecord) -> String? = { _ in nil }
    ) -> String {
        let all = lines(for: records, origin: origin, describe: describe)
        return all.isEmpty ? "" : all.joined(separator: "\n") + "\n"
    }

    /// `+3.201 ms`: the signed difference `time - origin` in milliseconds, rounded to the microsecond.
    public static func formatOffset(_ time: UInt64, origin: UInt64) -> String {
        let negative = time < origin
        let nanos = negative ? origin - time : time - origin
        let micros = nanos / 1_000 + (nanos % 1_000 >= 500 ? 1 : 0)
        let fraction = String(micros % 1_000)
        return (negative ? "-" : "+") + "\(micros / 1_000)."
            + String(repeating: "0", count: 3 - fraction.count) + fraction + " ms"
    }

    // MARK: - Private

    private struct Row {
        /// step, time, direction, engine, subject (store or channel), what (type, seq, summary)
        var cells: [String]
        var size: String
    }

    private static func row(for record: TraceRecord, origin: UInt64, showEngine: Bool) -> Row {
        var what = record.type
        if let seq = record.seq { what += " seq \(seq)" }
        if record.channel == TraceChannel.bridge, let summary = bridgeSummary(record.message) {
            what += " " + summary
        }
        return Row(
            cells: [
                "#\(record.step)",
                formatOffset(record.time, origin: origin),
                record.direction.arrow,
                record.engine,
                record.store ?? record.channel,
                what,
            ],
            size: "(\(record.size) B)")
    }

    /// `getInitialData c1`, `c1 ok`, `c2 failed refused`, `cartNavTapped`: the parts of a
    /// capability-bridge message (docs/PROTOCOL.md B) worth a glance; nil if it is not a JSON object.
    static func bridgeSummary(_ message: String) -> String? {
        guard let data = message.data(using: .utf8),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        var parts: [String] = []
        if let action = object["action"] as? String { parts.append(action) }
        if let event = object["event"] as? String { parts.append(event) }
        if let id = object["id"] as? String { parts.append(id) }
        if let ok = object["ok"] as? Bool {
            if ok {
                parts.append("ok")
            } else {
                let code = (object["error"] as? [String: Any])?["code"] as? String
                parts.append(code.map { "failed \($0)" } ?? "failed")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let missing = width - text.count
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return alignRight ? spaces + text : text + spaces
    }
}
