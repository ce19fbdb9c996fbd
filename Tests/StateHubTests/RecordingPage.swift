import JSEngine
import Synchronization
@testable import StateHub

/// A page for hub-logic tests: it never runs JavaScript; the test posts its messages with
/// `hub.receive(_:from:)` and reads what the hub sent it.
final class RecordingPage: PageTransport, Sendable {
    let pageID: String
    private let sent = Mutex<[JSONValue]>([])

    init(pageID: String) { self.pageID = pageID }

    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {}
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        if let value = try? JSONValue(parsing: message) { sent.withLock { $0.append(value) } }
    }
    func onClose(_ handler: @escaping @Sendable () -> Void) {}

    /// Messages the hub sent, oldest first.
    var messages: [JSONValue] { sent.withLock { $0 } }
    /// The types of the messages sent, oldest first.
    var types: [String] { messages.compactMap { $0["type"]?.stringValue } }
    func clear() { sent.withLock { $0.removeAll() } }
}

/// Message texts as the plugin writes them.
enum Wire {
    static func syncState(_ store: String, seq: Int, state: String, reason: String = "created") -> String {
        #"{"v":1,"storeId":"\#(store)","messageId":"w\#(seq)","seq":\#(seq),"type":"sync_state","payload":{"state":\#(state),"reason":"\#(reason)"}}"#
    }

    static func mutation(_ store: String, seq: Int?, ops: String) -> String {
        let seqField = seq.map { #","seq":\#($0)"# } ?? ""
        return #"{"v":1,"storeId":"\#(store)","messageId":"w\#(seq ?? 0)"\#(seqField),"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[\#(ops)]}]}}"#
    }
}
