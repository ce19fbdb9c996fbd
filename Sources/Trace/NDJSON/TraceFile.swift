import Foundation

/// Reads and writes NDJSON trace files: one ``TraceRecord`` JSON object per line.
///
/// Format (see docs/trace.md): UTF-8, lines separated by `\n` (a `\r` before it is
/// tolerated), keys in sorted order, `nil` optionals omitted. Blank lines are
/// ignored, so a file ending with a newline — or an empty file — is fine.
/// Unknown keys are ignored, so newer writers can add fields.
///
/// Reading is O(file size) time and memory (the whole file is loaded); lines are
/// decoded independently, and the first bad line stops the read with its number.
public enum TraceFile {
    /// Reads every record of the NDJSON file at `path`.
    ///
    /// - Throws: ``TraceFileError/unreadable(path:)`` when the file cannot be read,
    ///   ``TraceFileError/invalidLine(line:reason:)`` for the first bad line.
    public static func read(from path: String) throws(TraceFileError) -> [TraceRecord] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path)
        }
        return try decode(data)
    }

    /// Decodes NDJSON text into records, in file order.
    ///
    /// - Throws: ``TraceFileError/invalidLine(line:reason:)`` naming the 1-based line.
    public static func decode(_ data: Data) throws(TraceFileError) -> [TraceRecord] {
        let decoder = JSONDecoder()
        var records: [TraceRecord] = []
        var lineNumber = 0
        var start = data.startIndex
        while start < data.endIndex {
            lineNumber += 1
            let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            var end = newline
            if end > start && data[data.index(before: end)] == UInt8(ascii: "\r") {
                end = data.index(before: end)
            }
            let line = data[start..<end]
            start = newline < data.endIndex ? data.index(after: newline) : data.endIndex
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            do {
                records.append(try decoder.decode(TraceRecord.self, from: line))
            } catch let error as DecodingError {
                throw .invalidLine(line: lineNumber, reason: reason(for: error))
            } catch {
                throw .invalidLine(line: lineNumber, reason: "is not valid JSON")
            }
        }
        return records
    }

    /// Encodes records as NDJSON (one line each, every line ending with `\n`).
    /// O(total bytes).
    public static func encode(_ records: some Sequence<TraceRecord>) -> Data {
        var bytes: [UInt8] = []
        for record in records {
            NDJSONLineWriter.append(record, to: &bytes)
        }
        return Data(bytes)
    }

    /// The NDJSON line for one record, without the trailing newline.
    public static func line(for record: TraceRecord) -> String {
        NDJSONLineWriter.line(for: record)
    }

    /// Writes records as an NDJSON file at `path`, replacing it atomically.
    ///
    /// - Throws: ``TraceFileError/unwritable(path:reason:)``.
    public static func write(_ records: some Sequence<TraceRecord>, to path: String) throws(TraceFileError) {
        do {
            try encode(records).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .unwritable(path: path, reason: "\(error.localizedDescription)")
        }
    }

    /// Turns a decoding error into the wording of ``TraceFileError/invalidLine(line:reason:)``.
    static func reason(for error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _):
            return "lacks field \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "is not a JSON object" }
            return "field \"\(field(context.codingPath))\" has the wrong type (expected \(typeName(type)))"
        case .valueNotFound(let type, let context):
            if context.codingPath.isEmpty { return "is not a JSON object" }
            return "field \"\(field(context.codingPath))\" is null (expected \(typeName(type)))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "is not valid JSON" }
            return "field \"\(field(context.codingPath))\" is invalid: \(context.debugDescription)"
        @unknown default:
            return "is not a valid record"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is UInt64.Type: "integer"
        case is TraceDirection.Type: "\"web_to_native\" or \"native_to_web\""
        default: "\(type)"
        }
    }
}
