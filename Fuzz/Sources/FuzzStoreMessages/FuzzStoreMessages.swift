import FuzzSupport
import JSEngine
import StateHub
import Trace

/// Store messages from a page, decoded and applied by the hub exactly as a replay does
/// (`TraceReplay` feeds the live hub's receive path): the input is split at newlines into
/// messages from one page, after a `sync_state` that creates the store. Whatever they say,
/// the hub must record problems, never trap, and keep the mirror within the depth cap.
@_cdecl("FuzzStoreMessages_main")
public func entry(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzMain(argc: argc, argv: argv) { start, count in
        fuzzOne(fuzzInput(start, count))
        return 0
    }
}

private func fuzzOne(_ input: UnsafeBufferPointer<UInt8>) {
    let text = String(decoding: input, as: UTF8.self)
    let replay = TraceReplay()
    var step = 0
    func feed(_ message: String) {
        step += 1
        _ = replay.apply(TraceRecord(step: step, time: UInt64(step), direction: .webToNative, channel: "nativeBridge",
                                     engine: "fuzz", store: "s", type: "fuzz", message: message))
    }
    feed(#"{"v":1,"storeId":"s","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":0,"list":[1,2],"o":{"a":{}}},"reason":"created"}}"#)
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(64) { feed(String(line)) }
    for (_, state) in replay.mirrors {
        _ = state.jsonText()
        _ = state.untagged()
    }
}
