import FuzzSupport
import Foundation
import Trace

/// The trace reader on arbitrary bytes: records or a `TraceFileError`, never a trap; what it
/// reads writes back out.
@_cdecl("FuzzTraceReader_main")
public func entry(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzMain(argc: argc, argv: argv) { start, count in
        fuzzOne(fuzzInput(start, count))
        return 0
    }
}

private func fuzzOne(_ input: UnsafeBufferPointer<UInt8>) {
    if let records = try? TraceFile.decode(Data(input)) {
        _ = TraceFile.encode(records)
    }
}
