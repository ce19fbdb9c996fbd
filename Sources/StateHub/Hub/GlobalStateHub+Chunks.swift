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
        let head = text.utf8.prefix(400)
        guard let headText = String(head), headText.contains("\"type\":\"chunk\"") else { return false }
        guard let value = try? JSONValue(parsing: text), value["type"]?.stringValue == "chunk" else { return false }
        let storeId = value["storeId"]?.stringValue
        let payload = value["payload"]
        guard let transfer = payload?["transfer"]?.stringValue, let index = payload?["index"]?.intValue,
              let count = payload?["count"]?.intValue, let data = payload?["data"]?.stringValue
        else {
            reportChunkProblem("chunk without transfer, index, count or data", storeId: storeId, from: pageID)
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
        }
        return true
    }

    private func reportChunkProblem(_ reason: String, storeId: String?, from pageID: String) {
        update { state -> [HubEffect] in
            var effects = [problemEffect(HubProblem(pageID: pageID, storeId: storeId, kind: .malformedMessage(reason)), in: &state)]
            if let storeId, state.stores[storeId]?.hosts.contains(where: { $0.pageID == pageID }) == true,
               let request = requestSyncEffect(pageID: pageID, storeId: storeId, reason: "bad_message", detail: reason, in: &state) {
                effects.append(request)
            }
            return effects
        }
    }
}
