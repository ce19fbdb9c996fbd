import CapabilityBridge

/// The legacy bridge URL parser (docs/PROTOCOL.md B.5) on arbitrary text: it must answer a
/// request or a typed error, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? LegacyURLRequest.parse(text, scheme: "jsbridge")
    return 0
}
