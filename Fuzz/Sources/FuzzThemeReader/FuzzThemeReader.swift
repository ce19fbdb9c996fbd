import FuzzSupport
import Foundation
import StyleTokens

/// The theme reader on arbitrary bytes: a contract or a `ThemeDecodingError`, never a trap;
/// and `theme check`'s one-pass inspection (collecting parse, schema walk, source positions).
@_cdecl("FuzzThemeReader_main")
public func entry(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzMain(argc: argc, argv: argv) { start, count in
        fuzzOne(fuzzInput(start, count))
        return 0
    }
}

private func fuzzOne(_ input: UnsafeBufferPointer<UInt8>) {
    _ = try? ThemeContract(jsonData: Data(input))
    _ = ThemeLoader.inspect(Data(input))
}
