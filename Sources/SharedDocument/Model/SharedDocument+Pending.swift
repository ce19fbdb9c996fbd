extension SharedDocument {
    /// What the applied updates hold that is not part of the document yet, or `nil` when
    /// everything received is integrated. `toJSON` shows the document without it.
    public var pending: PendingContent? {
        var content = PendingContent(structs: [], missing: [], deletes: [])
        if let pendingStructs, let update = try? DecodedUpdate.read(pendingStructs.update) {
            for entry in update.clients.sorted(by: { $0.client < $1.client }) {
                let structs = entry.structs.filter { $0.kind != .skip }
                guard let first = structs.first, let last = structs.last else { continue }
                content.structs.append(PendingContent.Waiting(span: PendingContent.Span(client: entry.client, clocks: first.id.clock..<last.end), count: structs.count))
            }
            // Yjs records the highest clock needed per client; what is here already is not missing.
            for (client, clock) in pendingStructs.missing.sorted(by: { $0.key < $1.key }) {
                let have = store.state(of: client)
                if have <= clock { content.missing.append(PendingContent.Span(client: client, clocks: have..<(clock + 1))) }
            }
        }
        if !pendingDeletes.isEmpty {
            let deleteSet = pendingDeletes.deleteSet
            for client in deleteSet.clients.sorted() {
                for range in deleteSet.ranges[client] ?? [] {
                    content.deletes.append(PendingContent.Span(client: client, clocks: range.clock..<(range.clock + range.length)))
                }
            }
        }
        return content.isEmpty ? nil : content
    }
}
