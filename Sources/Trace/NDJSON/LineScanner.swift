/// Splits NDJSON bytes, fed in chunks of any size, into lines and decodes each as it
/// completes: the bytes of only one line are kept, and that line is refused as soon as it
/// passes the cap. O(total bytes).
struct LineScanner {
    let recovering: Bool
    let maximumLineBytes: Int
    private var records: [TraceRecord] = []
    private var partial: [UInt8] = []
    private var lineNumber = 0

    init(recovering: Bool, maximumLineBytes: Int) {
        self.recovering = recovering
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    /// Feeds a chunk; the records of its complete lines are kept for ``finish()``.
    mutating func feed(_ chunk: [UInt8]) throws(TraceFileError) {
        var decoded: [TraceRecord] = []
        try feed(chunk) { decoded.append($0) }
        records += decoded
    }

    /// Feeds a chunk and hands each record of its complete lines to `each`, keeping none.
    mutating func feed(_ chunk: [UInt8], each: (TraceRecord) -> Void) throws(TraceFileError) {
        var start = 0
        while start < chunk.count {
            guard let newline = chunk[start...].firstIndex(of: 0x0A) else {
                guard partial.count + (chunk.count - start) <= maximumLineBytes else {
                    throw .lineTooLong(line: lineNumber + 1, limit: maximumLineBytes)
                }
                partial.append(contentsOf: chunk[start...])
                return
            }
            lineNumber += 1
            guard partial.count + (newline - start) <= maximumLineBytes else { throw .lineTooLong(line: lineNumber, limit: maximumLineBytes) }
            if partial.isEmpty {
                if case .record(let record) = try take(chunk[start ..< newline], mayBeCut: false) { each(record) }
            } else {
                partial.append(contentsOf: chunk[start ..< newline])
                let line = partial
                partial = []
                if case .record(let record) = try take(line[...], mayBeCut: false) { each(record) }
            }
            start = newline + 1
        }
    }

    /// The records; a last line without a newline whose JSON ends before its value does is
    /// the cut line when recovering; any other bad line is an error.
    mutating func finish() throws(TraceFileError) -> TraceFile.Recovered {
        var last: TraceRecord?
        let cutLine = try finish { last = $0 }
        if let last { records.append(last) }
        return TraceFile.Recovered(records: records, cutLine: cutLine)
    }

    /// Ends the input: a last line without a newline goes to `each`; returns its number when it
    /// was left out as cut (recovering only).
    mutating func finish(each: (TraceRecord) -> Void) throws(TraceFileError) -> Int? {
        guard !partial.isEmpty else { return nil }
        lineNumber += 1
        let line = partial
        partial = []
        switch try take(line[...], mayBeCut: recovering) {
        case .record(let record): each(record); return nil
        case .blank: return nil
        case .cut: return lineNumber
        }
    }

    /// What one line was.
    enum Line {
        case record(TraceRecord)
        case blank
        /// A cut last line, left out (recovering only).
        case cut
    }

    /// Decodes one line (a `\r` before its newline dropped; blank lines skipped).
    private func take(_ raw: ArraySlice<UInt8>, mayBeCut: Bool) throws(TraceFileError) -> Line {
        var line = raw
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        switch line.withUnsafeBufferPointer({ TraceLineDecoder.record($0) }) {
        case .success(let record):
            return .record(record)
        case .failure(let reason):
            // Only JSON that ends before its value does is a cut line; a whole line that is
            // wrong (valid JSON but no record, or bad JSON before its end) is an error even
            // without its newline.
            if mayBeCut && reason.endsEarly { return .cut }
            throw .invalidLine(line: lineNumber, reason: reason.text)
        }
    }
}
