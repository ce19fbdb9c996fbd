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

    mutating func feed(_ chunk: [UInt8]) throws(TraceFileError) {
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
                try take(chunk[start ..< newline], mayBeCut: false)
            } else {
                partial.append(contentsOf: chunk[start ..< newline])
                let line = partial
                partial = []
                try take(line[...], mayBeCut: false)
            }
            start = newline + 1
        }
    }

    /// The records; a last line without a newline whose JSON ends before its value does is
    /// the cut line when recovering; any other bad line is an error.
    mutating func finish() throws(TraceFileError) -> TraceFile.Recovered {
        guard !partial.isEmpty else { return TraceFile.Recovered(records: records, cutLine: nil) }
        lineNumber += 1
        let line = partial
        partial = []
        let cut = try take(line[...], mayBeCut: recovering)
        return TraceFile.Recovered(records: records, cutLine: cut ? lineNumber : nil)
    }

    /// Decodes one line (a `\r` before its newline dropped; blank lines skipped). Returns
    /// whether it was left out as a cut last line.
    @discardableResult
    private mutating func take(_ raw: ArraySlice<UInt8>, mayBeCut: Bool) throws(TraceFileError) -> Bool {
        var line = raw
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return false }
        switch line.withUnsafeBufferPointer({ TraceLineDecoder.record($0) }) {
        case .success(let record):
            records.append(record)
            return false
        case .failure(let reason):
            // Only JSON that ends before its value does is a cut line; a whole line that is
            // wrong (valid JSON but no record, or bad JSON before its end) is an error even
            // without its newline (hostile review, console session 18).
            if mayBeCut && reason.endsEarly { return true }
            throw .invalidLine(line: lineNumber, reason: reason.text)
        }
    }
}
