import JSEngine
import Trace

/// Web → native `chunk` messages: docs/PROTOCOL.md A.11.
extension GlobalStateHub {
    /// Handles `text` if it is a `chunk` message; false for any other message.
    ///
    /// A chunk is recorded in the trace as a short summary (not its data); the message it
    /// completes is then handled, and recorded, as if it had arrived whole.
    func receiveChunkIfAny(_ text: String, from pageID: String) -> Bool {
        guard text.utf8.count <= configuration.maximumMessageBytes else { return false }
        guard Self.headMentionsChunk(text) else { return false }
        guard let value = try? JSONValue(parsing: text), value["type"]?.stringValue == "chunk" else { return false }
        let storeId = value["storeId"]?.stringValue
        let payload = value["payload"]
        // Each field checked on its own, so the problem names the one that is wrong.
        func field(_ name: String, _ expected: String) -> String {
            guard let found = payload?[name] else { return "chunk without payload.\(name) (\(expected))" }
            return "chunk with payload.\(name) \(String(found.jsonText().prefix(40))): expected \(expected)"
        }
        func count(_ name: String, from lowest: Int) -> Int? {
            guard let number = payload?[name]?.intValue, number >= lowest, number <= Self.maximumChunkCount else { return nil }
            return number
        }
        let problem: String?
        let transfer = payload?["transfer"]?.stringValue, data = payload?["data"]?.stringValue
        let index = count("index", from: 0), total = count("count", from: 1)
        if transfer == nil { problem = field("transfer", "a string") }
        else if total == nil { problem = field("count", "a whole number of chunks from 1 to \(Self.maximumChunkCount)") }
        else if index == nil { problem = field("index", "a whole number from 0 to count - 1") }
        else if data == nil { problem = field("data", "a string") }
        else { problem = nil }
        guard problem == nil, let transfer, let index, let count = total, let data else {
            reportChunkProblem(problem ?? "malformed chunk", storeId: storeId, from: pageID)
            return true
        }
        let summary: JSONValue = ["transfer": .string(transfer), "index": .number(Double(index)), "count": .number(Double(count)), "bytes": .number(Double(data.utf8.count))]
        configuration.trace?.record(.webToNative, channel: TraceChannel.nativeBridge, engine: pageID, store: storeId,
                                    type: "chunk", message: summary.jsonText())
        let (outcome, abandoned) = chunks.add(page: pageID, storeId: storeId, transfer: transfer, index: index, count: count, data: data)
        if let abandoned { reportChunkProblem(abandoned.reason, storeId: abandoned.storeId, from: pageID) }
        switch outcome {
        case .incomplete: break
        case .complete(let whole): receiveWhole(whole, from: pageID, assembled: true)
        case .failed(let reason): reportChunkProblem(reason, storeId: storeId, from: pageID)
        case .tooLarge(let reason, let bytes): reportOversizeTransfer(reason, transfer: transfer, bytes: bytes, storeId: storeId, from: pageID)
        case .ignored: break
        }
        return true
    }

    /// A transfer over the page's cap: a problem, the page told with `error` `transfer_too_large`
    /// (A.5.10), and one resync unless one is pending — the transfer may be the answer to it,
    /// and asking again would loop (as for an oversize message, A.8).
    private func reportOversizeTransfer(_ reason: String, transfer: String, bytes: Int, storeId: String?, from pageID: String) {
        let limit = chunks.maximumBytes
        update { state -> [HubEffect] in
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .malformedMessage(reason)), in: &state)]
            let payload: JSONValue = ["code": "transfer_too_large", "message": .string(reason),
                                      "detail": ["transfer": .string(transfer), "bytes": .number(Double(bytes)), "limit": .number(Double(limit))]]
            if let send = sendEffect(to: pageID, storeId: storeId, type: .error, payload: payload, in: &state) { effects.append(send) }
            if let storeId, let index = state.stores[storeId]?.hosts.firstIndex(where: { $0.pageID == pageID }) {
                // The dropped transfer held this store's writes, unread, so whose they were is
                // unknown: no dispatch of this store pending in this page may report them kept
                // (A.7, "Dispatch results stay true").
                for (id, pending) in state.pending where pending.pageID == pageID && pending.storeId == storeId {
                    state.pending[id]?.writesDiscarded = true
                }
                if state.stores[storeId]?.hosts[index].awaitingSync == false,
                   let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "oversize", detail: reason, in: &state) {
                    effects.append(request)
                }
            }
            return effects
        }
    }

    private func reportChunkProblem(_ reason: String, storeId: String?, from pageID: String) {
        update { state -> [HubEffect] in
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .malformedMessage(reason)), in: &state)]
            // Asked once: a resync already pending covers it (no loop, A.8).
            if let storeId, state.stores[storeId]?.hosts.first(where: { $0.pageID == pageID })?.awaitingSync == false,
               let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "bad_message", detail: reason, in: &state) {
                effects.append(request)
            }
            return effects
        }
    }

    /// The most chunks one transfer may have: 512 MiB in the smallest slices a page cuts (256
    /// code units). A larger `count` cannot be honest, so it is refused by name.
    static let maximumChunkCount = (512 << 20) / 256

    /// Whether the first 400 UTF-8 bytes of `text` hold `"type":"chunk"`: a byte search in place,
    /// run on every message (Foundation's `contains` bridged each head to `NSString`:
    /// a quarter of the hub's receive time in `perf`, 1 MB parses included).
    static func headMentionsChunk(_ text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable(headMentionsChunk) { return found }
        return Array(text.utf8.prefix(400)).withUnsafeBufferPointer(headMentionsChunk)
    }

    /// ``headMentionsChunk(_:)`` on a message's UTF-8 bytes.
    static func headMentionsChunk(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = chunkTypeMember
        let end = min(bytes.count, 400) - needle.count
        guard end >= 0 else { return false }
        // Anchored on the needle's `k`, which messages seldom hold (a `"`, the first byte,
        // is every few bytes): the whole needle is compared only there.
        let anchor = needle.count - 2
        var start = 0
        while start <= end {
            if bytes[start + anchor] == UInt8(ascii: "k") {
                var offset = 0
                while offset < needle.count, bytes[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    private static let chunkTypeMember: [UInt8] = Array(#""type":"chunk""#.utf8)
}
