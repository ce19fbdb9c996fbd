import Foundation
import Trace

/// The trace reader on arbitrary bytes: records or a `TraceFileError`, never a trap; what it
/// reads writes back out.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if let records = try? TraceFile.decode(Data(bytes: start, count: count)) {
        _ = TraceFile.encode(records)
    }
    return 0
}
