import Synchronization

/// Puts chunked messages back together (docs/PROTOCOL.md A.11).
///
/// Per (page, transfer): the parts so far. Chunks must arrive in order (a page's messages
/// do); a chunk out of order, a changed `count`, or a total over `maximumBytes` drops the
/// transfer. Memory: the parts of unfinished transfers, at most `maximumBytes` each.
final class ChunkAssembler: Sendable {
    struct Partial: Sendable {
        var storeId: String?
        var count: Int
        var parts: [String]
        var bytes: Int
    }

    enum Outcome: Sendable {
        case incomplete
        case complete(String)
        case failed(String)
    }

    /// Largest message put together from chunks: 512 MiB.
    static let maximumBytes = 512 << 20

    private let partials = Mutex<[String: Partial]>([:])

    func add(page: String, storeId: String?, transfer: String, index: Int, count: Int, data: String) -> Outcome {
        let key = page + "\u{0}" + transfer
        return partials.withLock { partials -> Outcome in
            var partial = partials[key] ?? Partial(storeId: storeId, count: count, parts: [], bytes: 0)
            guard count >= 1, partial.count == count, index == partial.parts.count else {
                partials.removeValue(forKey: key)
                return .failed("chunk \(index) of transfer \(transfer) out of order (expected \(partial.parts.count) of \(partial.count), got \(index) of \(count)); transfer dropped")
            }
            partial.bytes += data.utf8.count
            guard partial.bytes <= Self.maximumBytes else {
                partials.removeValue(forKey: key)
                return .failed("transfer \(transfer) over \(Self.maximumBytes) bytes; dropped")
            }
            partial.parts.append(data)
            if partial.parts.count == count {
                partials.removeValue(forKey: key)
                return .complete(partial.parts.joined())
            }
            partials[key] = partial
            return .incomplete
        }
    }

    /// Forgets a page's unfinished transfers (it went away).
    func forget(page: String) {
        partials.withLock { $0 = $0.filter { !$0.key.hasPrefix(page + "\u{0}") } }
    }
}
