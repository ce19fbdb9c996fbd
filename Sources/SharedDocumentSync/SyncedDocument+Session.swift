import SharedDocument

// One connection's life: the y-websocket handshake, updates both ways, acknowledgements, and
// reconnecting with back-off (docs/sync.md §3.3).

extension SyncedDocument {
    /// What one connection has sent and heard.
    struct Session {
        /// Our sync step 2 has gone (the answer to the server's step 1): live updates may follow.
        var sentStep2 = false
        /// Pending ids up to this one are in our step 2; synced once they are kept.
        var step2Through: Int64 = 0
        /// The server's step 2 (the answer to our first step 1) has been applied.
        var receivedStep2 = false
        /// Document-changing messages sent on this connection (what acknowledgements count).
        var counted = 0
        /// Acknowledgement mode: message number → the pending ids that message completes.
        var marks: [(count: Int, through: Int64)] = []
        /// Without acknowledgements: our step 1s in flight, oldest first; a probe's answer shows
        /// which pending updates the server holds.
        var probes: [Probe?] = []
        var probeScheduled = false
    }

    struct Probe {
        /// What the server holds at least once it has read everything we sent before the probe.
        var stateVector: [Int: Int]
        var through: Int64
    }

    func run() async {
        var delay = configuration.initialRetryDelay
        while !isClosed && !Task.isCancelled {
            setStatus(SyncStatus(state: .connecting, pendingUpdates: pendingIDs.count, lastProblem: status.lastProblem))
            var problem: String
            do {
                let connection = try await transport.connect(to: url)
                guard !isClosed, !Task.isCancelled else {
                    connection.close()
                    return
                }
                self.connection = connection
                session = Session(probes: [nil])
                setStatus(SyncStatus(state: .syncing, pendingUpdates: pendingIDs.count, lastProblem: status.lastProblem))
                connection.send(SyncMessage.syncStep1(stateVector: document.encodeStateVector()).encoded())
                presenceConnected()
                for try await bytes in connection.inbound {
                    try receive(bytes, on: connection)
                    if status.state == .synced { delay = configuration.initialRetryDelay }
                }
                problem = "the server closed the connection"
            } catch let error as SyncConnectionClosed {
                problem = error.description
            } catch {
                problem = "\(error)"
            }
            connection?.close()
            connection = nil
            session = nil
            presenceDisconnected()
            guard !isClosed, !Task.isCancelled else { return }
            setStatus(SyncStatus(state: .offline, pendingUpdates: pendingIDs.count, lastProblem: problem))
            try? await configuration.clock.sleep(for: delay * Double.random(in: 0.8...1.2))
            delay = min(delay * 2, configuration.maximumRetryDelay)
        }
    }

    /// One message from the server.
    func receive(_ bytes: [UInt8], on connection: any SyncConnection) throws {
        let message = try SyncMessage(decoding: bytes)
        switch message {
        case .syncStep1(let stateVector):
            let missing = try document.encodeStateAsUpdate(stateVector: stateVector)
            connection.send(SyncMessage.syncStep2(update: missing).encoded())
            let through = pendingIDs.last ?? 0
            session?.sentStep2 = true
            session?.step2Through = through
            session?.counted += 1
            if configuration.acknowledgements {
                if let counted = session?.counted { session?.marks.append((counted, through)) }
            } else {
                // Everything we hold went in that step 2; a step 1 after it asks the server for
                // its delete set, which shows the pending deletions it now holds.
                let serverHolds = try Updates.decodeStateVector(stateVector).merging(document.stateVector, uniquingKeysWith: max)
                sendProbe(Probe(stateVector: serverHolds, through: through), on: connection)
            }
        case .syncStep2(let update), .update(let update):
            try document.applyUpdate(update, origin: Origin.server)
            if case .syncStep2 = message { try answerReceived(update) }
        case .acknowledgement(let count):
            guard let session else { return }
            let kept = session.marks.last(where: { $0.count <= count })?.through
            self.session?.marks.removeAll { $0.count <= count }
            if let kept { saveSnapshot(keptThrough: kept) }
        case .permissionDenied(let reason):
            setStatus(SyncStatus(state: status.state, pendingUpdates: pendingIDs.count, lastProblem: "permission denied: \(reason)"))
        case .awareness(let update):
            try receivePresence(update)
        case .queryAwareness:
            answerPresenceQuery()
        }
        updateSyncedState()
    }

    /// The server's step 2 answers our oldest step 1 in flight.
    private func answerReceived(_ update: [UInt8]) throws {
        guard var current = session, !current.probes.isEmpty else { return }
        let probe = current.probes.removeFirst()
        current.receivedStep2 = true
        session = current
        guard let probe else { return }
        var kept: [Int64] = []
        for id in pendingIDs where id <= probe.through {
            guard let stored = try? store.pendingUpdate(id: id) else { continue }
            if try Updates.isCovered(stored, stateVector: probe.stateVector, deletions: update) { kept.append(id) }
        }
        if !kept.isEmpty { saveSnapshot(kept: kept) }
    }

    func sendLocalUpdate(_ update: [UInt8], id: Int64) {
        guard let connection, let current = session, current.sentStep2 else { return }
        connection.send(SyncMessage.update(update).encoded())
        session?.counted += 1
        if configuration.acknowledgements {
            session?.marks.append((current.counted + 1, id))
        } else if !current.probeScheduled {
            // One probe per burst of edits, after it settles.
            session?.probeScheduled = true
            let clock = configuration.clock
            Task {
                try? await clock.sleep(for: .milliseconds(200))
                self.probeAfterBurst()
            }
        }
    }

    private func probeAfterBurst() {
        guard let connection, session != nil else { return }
        session?.probeScheduled = false
        sendProbe(Probe(stateVector: document.stateVector, through: pendingIDs.last ?? 0), on: connection)
    }

    private func sendProbe(_ probe: Probe, on connection: any SyncConnection) {
        session?.probes.append(probe)
        connection.send(SyncMessage.syncStep1(stateVector: document.encodeStateVector()).encoded())
    }

    func updateSyncedState() {
        guard let session, session.sentStep2, session.receivedStep2 else { return }
        let waiting = pendingIDs.first.map { $0 <= session.step2Through } ?? false
        let state: SyncStatus.State = waiting ? .syncing : .synced
        setStatus(SyncStatus(state: state, pendingUpdates: pendingIDs.count, lastProblem: state == .synced ? nil : status.lastProblem))
    }
}
