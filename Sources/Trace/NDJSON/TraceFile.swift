import Foundation

/// Reads and writes NDJSON trace files: one ``TraceRecord`` JSON object per line.
///
/// Format (see docs/trace.md): UTF-8, lines separated by `\n` (a `\r` before it is
/// tolerated), keys in sorted order, `nil` optionals omitted. Blank lines are
/// ignored, so a file ending with a newline — or an empty file — is fine.
/// Unknown keys are ignored, so newer writers can add fields.
///
/// Reading streams the file in 1 MiB chunks: memory is the records read plus one line, and a
/// line longer than `maximumLineBytes` (default ``defaultMaximumLineBytes``) is refused as
/// soon as the cap is passed, without reading the rest of it. Lines are decoded
/// independently (StateHubJSON's parser), and the first bad line stops the read with its
/// number and what is wrong in it.
public enum TraceFile {
    /// The longest line read by default: 64 MiB (a state of 150,000 rows is about 11 MB).
    public static let defaultMaximumLineBytes = 64 << 20

    /// Reads every record of the NDJSON file at `path`.
    ///
    /// - Throws: ``TraceFileError/unreadable(path:)`` when the file cannot be read,
    ///   ``TraceFileError/invalidLine(line:reason:)`` for the first bad line,
    ///   ``TraceFileError/lineTooLong(line:limit:)`` for a line over the cap.
    public static func read(from path: String, maximumLineBytes: Int = defaultMaximumLineBytes) throws(TraceFileError) -> [TraceRecord] {
        try scan(path: path, recovering: false, maximumLineBytes: maximumLineBytes).records
    }

    /// Reads the NDJSON file at `path` and hands each record to `body` as its line completes, in
    /// file order, keeping none: memory is one line and one 1 MiB chunk, whatever the file's size.
    /// Records before a bad line have been handed over when the error is thrown.
    ///
    /// - Throws: the errors of ``read(from:maximumLineBytes:)``.
    public static func forEachRecord(
        inFileAt path: String,
        maximumLineBytes: Int = defaultMaximumLineBytes,
        _ body: (TraceRecord) -> Void
    ) throws(TraceFileError) {
        let handle = try openForReading(path)
        defer { try? handle.close() }
        var scanner = LineScanner(recovering: false, maximumLineBytes: maximumLineBytes)
        while let chunk = try nextChunk(of: handle, path: path) {
            try scanner.feed(chunk, each: body)
        }
        _ = try scanner.finish(each: body)
    }

    /// Decodes NDJSON text into records, in file order.
    ///
    /// - Throws: ``TraceFileError/invalidLine(line:reason:)`` naming the 1-based line,
    ///   ``TraceFileError/lineTooLong(line:limit:)``.
    public static func decode(_ data: Data, maximumLineBytes: Int = defaultMaximumLineBytes) throws(TraceFileError) -> [TraceRecord] {
        var scanner = LineScanner(recovering: false, maximumLineBytes: maximumLineBytes)
        try scanner.feed([UInt8](data))
        return try scanner.finish().records
    }

    /// Reads the file at `path` through a ``LineScanner``, 1 MiB at a time.
    static func scan(path: String, recovering: Bool, maximumLineBytes: Int) throws(TraceFileError) -> Recovered {
        let handle = try openForReading(path)
        defer { try? handle.close() }
        var scanner = LineScanner(recovering: recovering, maximumLineBytes: maximumLineBytes)
        while let chunk = try nextChunk(of: handle, path: path) {
            try scanner.feed(chunk)
        }
        return try scanner.finish()
    }

    private static func openForReading(_ path: String) throws(TraceFileError) -> FileHandle {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable(path: path) }
        return handle
    }

    /// The next 1 MiB of the file, or `nil` at its end.
    private static func nextChunk(of handle: FileHandle, path: String) throws(TraceFileError) -> [UInt8]? {
        let chunk: Data?
        do { chunk = try handle.read(upToCount: 1 << 20) } catch { throw .unreadable(path: path) }
        guard let chunk, !chunk.isEmpty else { return nil }
        return [UInt8](chunk)
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
}
