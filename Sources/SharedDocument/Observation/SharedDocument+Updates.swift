// Update observation (Yjs's `doc.on('update')`): after each transaction that added structs or
// deleted content, that transaction's changes as one v1 update — what a client persists and
// sends to its peers.

extension SharedDocument {
    /// Calls `callback` with the v1 update of every transaction that changed the document,
    /// local or applied, and the transaction (its `origin` tells a client which changes came
    /// from its own connection). Returns a token for ``unobserveUpdates(_:)``.
    ///
    /// The update holds the structs the transaction added (from the state before it) and the
    /// content it deleted, written after the transaction's clean-up, as Yjs's
    /// `writeUpdateMessageFromTransaction` does; applying it to a peer that had the state before
    /// the transaction gives that peer the same document. Callbacks run synchronously at the end
    /// of the transaction, after deep observers.
    @discardableResult
    public func observeUpdates(_ callback: @escaping (_ update: [UInt8], _ transaction: Transaction) -> Void) -> Int {
        nextObserverID += 1
        updateObservers.append((nextObserverID, callback))
        return nextObserverID
    }

    public func unobserveUpdates(_ token: Int) {
        updateObservers.removeAll { $0.id == token }
    }

    func emitUpdate(_ transaction: Transaction) {
        guard !updateObservers.isEmpty else { return }
        let added = transaction.added.filter { store.state(of: $0.key) > $0.value }
        guard !added.isEmpty || !transaction.deleteSet.isEmpty else { return }
        var writer = ByteWriter()
        writeClientsStructs(to: &writer, selected: added.map { ($0.key, $0.value) }, gatherDeleted: false)
        transaction.deleteSet.write(to: &writer)
        let update = writer.bytes
        for observer in updateObservers { observer.callback(update, transaction) }
    }
}
