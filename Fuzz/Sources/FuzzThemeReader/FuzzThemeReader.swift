import Foundation
import StyleTokens

/// The theme reader on arbitrary bytes: a contract or a `ThemeDecodingError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? ThemeContract(jsonData: Data(bytes: start, count: count))
    return 0
}
