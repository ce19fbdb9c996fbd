#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The open NDJSON file of a ``TraceRecorder``, with its reusable buffers.
///
/// Owned by the recorder's file lock. Records are handed over in batches
/// (`batch`), encoded into `bytes` and written with `write(2)` in chunks of at
/// most `chunkBytes`. After a failure the file is closed, `failure` is kept, and
/// later batches are discarded. Steady state allocates nothing: both buffers are
/// emptied keeping their capacity.
struct NDJSONFileSink: Sendable {
    let path: String
    private var descriptor: Int32
    /// Records taken from the recorder, waiting to be encoded.
    private var batch: [TraceRecord] = []
    private var bytes: [UInt8] = []
    private(set) var failure: TraceRecorderError?

    static let chunkBytes = 1 << 16

    /// Creates or truncates the file at `path`.
    init(path: String) throws(TraceRecorderError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotOpen(path: path, reason: Self.systemError())
        }
        self.path = path
        self.descriptor = fd
        bytes.reserveCapacity(Self.chunkBytes + 4096)
    }

    var isOpen: Bool { descriptor >= 0 }

    /// Takes the recorder's pending records, leaving it this sink's empty (but
    /// allocated) array in exchange. O(1).
    mutating func takeBatch(from pending: inout [TraceRecord]) {
        swap(&pending, &batch)
    }

    /// Encodes and writes `batch`, then empties it. O(bytes of the batch).
    mutating func writeBatch() {
        defer { batch.removeAll(keepingCapacity: true) }
        guard descriptor >= 0 else { return }
        for record in batch {
            NDJSONLineWriter.append(record, to: &bytes)
            if bytes.count >= Self.chunkBytes {
                writeBytes()
                guard descriptor >= 0 else { return }
            }
        }
        writeBytes()
    }

    /// Closes the file (after writing what is buffered). Idempotent.
    mutating func close() {
        writeBatch()
        guard descriptor >= 0 else { return }
        Self.closeDescriptor(descriptor)
        descriptor = -1
    }

    private static func closeDescriptor(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    private mutating func writeBytes() {
        defer { bytes.removeAll(keepingCapacity: true) }
        var failedErrno: Int32?
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failedErrno = errno
                    return
                }
                offset += written
            }
        }
        if let failedErrno {
            failure = .writeFailed(path: path, reason: Self.systemError(failedErrno))
            Self.closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    private static func systemError(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
