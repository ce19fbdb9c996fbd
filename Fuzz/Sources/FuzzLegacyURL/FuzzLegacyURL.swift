import FuzzSupport
import CapabilityBridge

/// The legacy bridge URL parser (docs/PROTOCOL.md B.5) on arbitrary text: it must answer a
/// request or a typed error, never trap.
@_cdecl("FuzzLegacyURL_main")
public func entry(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzMain(argc: argc, argv: argv) { start, count in
        fuzzOne(fuzzInput(start, count))
        return 0
    }
}

private func fuzzOne(_ input: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: input, as: UTF8.self)
    _ = try? LegacyURLRequest.parse(text, scheme: "jsbridge")
}
