import StateHubJSON
import Synchronization

/// What the hub's receiver for one attached page keeps from one message to the next, so a
/// flush-sync write allocates nothing in the usual case (docs/hub.md, "A flush-sync write"): the
/// path buffer of the last write, reused when nothing else holds it, and the last store id with its
/// bytes, so a write to the same store makes no `String` for its id.
///
/// A page's messages arrive one at a time on its thread; the lock is uncontended and only there so
/// no transport could make two calls race on the buffers.
final class PageReceiver: Sendable {
    struct Reused {
        var path: [PathStep] = []
        var storeIdBytes: [UInt8] = []
        var storeId = ""

        /// The store id at `range` of `bytes`, the last one's `String` again when the bytes match.
        mutating func storeId(in bytes: UnsafeBufferPointer<UInt8>, at range: Range<Int>) -> String {
            let id = UnsafeBufferPointer(rebasing: bytes[range])
            if !id.elementsEqual(storeIdBytes) {
                storeId = String(decoding: id, as: UTF8.self)
                storeIdBytes = Array(id)
            }
            return storeId
        }
    }

    let pageID: String
    let reused = Mutex(Reused())

    init(pageID: String) { self.pageID = pageID }
}
