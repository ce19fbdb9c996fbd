import Synchronization

/// Puts chunked messages back together (docs/PROTOCOL.md A.11).
///
/// One open transfer per page: a page posts a transfer's chunks back to back, so a chunk with
/// index 0 while another transfer is open abandons that one (reported), and any other chunk
/// must continue the open transfer. Memory: at most `maximumBytes` of unfinished chunks per
/// page, however many transfers it starts — a forged or abandoned transfer cannot pile up.
final class ChunkAssembler: Sendable {
    struct Partial: Sendable {
        var transfer: String
        var storeId: String?
        var count: Int
        var parts: [String]
        var bytes: Int
    }

    enum Outcome: Sendable {
        case incomplete
        case complete(String)
        case failed(String)
        /// The transfer went over ``maximumBytes`` (`bytes` with this chunk) and was dropped.
        case tooLarge(String, bytes: Int)
        /// A later chunk of a transfer dropped for its size: the page sends a transfer's chunks
        /// in one loop, so they keep coming after the drop. Already reported once; each one
        /// reported again (with a resync request) would start a loop.
        case ignored
    }

    /// A transfer dropped before it completed, to report against its own store.
    struct Dropped: Sendable {
        var storeId: String?
        var reason: String
    }

    /// Largest message put together from chunks, and the most a page may hold unfinished: 512 MiB.
    static let defaultMaximumBytes = 512 << 20
    let maximumBytes: Int

    init(maximumBytes: Int = ChunkAssembler.defaultMaximumBytes) { self.maximumBytes = maximumBytes }

    private let open = Mutex<[String: Partial]>([:])
    /// Per page, the transfer last dropped for its size, whose remaining chunks are ignored.
    private let droppedForSize = Mutex<[String: String]>([:])

    /// Adds one chunk from `page`. `abandoned` is the page's open transfer when this chunk
    /// starts a new one (index 0) before that one completed.
    func add(page: String, storeId: String?, transfer: String, index: Int, count: Int, data: String) -> (outcome: Outcome, abandoned: Dropped?) {
        if index > 0, droppedForSize.withLock({ $0[page] == transfer }) { return (.ignored, nil) }
        droppedForSize.withLock { _ = $0.removeValue(forKey: page) }
        return open.withLock { open -> (Outcome, Dropped?) in
            var abandoned: Dropped?
            var partial: Partial
            if index == 0 {
                if let previous = open.removeValue(forKey: page) {
                    abandoned = Dropped(storeId: previous.storeId, reason: "transfer \(previous.transfer) abandoned after \(previous.parts.count) of \(previous.count) chunks (transfer \(transfer) started); dropped")
                }
                guard count >= 1 else { return (.failed("chunk 0 of transfer \(transfer) with count \(count); refused"), abandoned) }
                partial = Partial(transfer: transfer, storeId: storeId, count: count, parts: [], bytes: 0)
            } else {
                guard let current = open.removeValue(forKey: page) else {
                    return (.failed("chunk \(index) of transfer \(transfer) out of order: no transfer open (chunk 0 never arrived, or the transfer was dropped); refused"), nil)
                }
                guard current.transfer == transfer, current.count == count, index == current.parts.count else {
                    return (.failed("chunk \(index) of \(count) of transfer \(transfer) out of order: it does not continue the open transfer \(current.transfer) (expected chunk \(current.parts.count) of \(current.count)); both dropped"), nil)
                }
                partial = current
            }
            partial.bytes += data.utf8.count
            guard partial.bytes <= maximumBytes else {
                droppedForSize.withLock { $0[page] = transfer }
                return (.tooLarge("transfer \(transfer) over \(maximumBytes) bytes, the most a page may hold unfinished; dropped", bytes: partial.bytes), abandoned)
            }
            partial.parts.append(data)
            if partial.parts.count == count { return (.complete(partial.parts.joined()), abandoned) }
            open[page] = partial
            return (.incomplete, abandoned)
        }
    }

    /// Bytes of unfinished chunks `page` holds now.
    func openBytes(page: String) -> Int { open.withLock { $0[page]?.bytes ?? 0 } }

    /// Forgets a page's unfinished transfer (it went away).
    func forget(page: String) {
        _ = open.withLock { $0.removeValue(forKey: page) }
        _ = droppedForSize.withLock { $0.removeValue(forKey: page) }
    }
}
