import SharedDocument
import StateHubJSON

// Presence (awareness) as y-protocols' `Awareness` keeps it (docs/sync.md §3.5): the rules are
// in `PresenceTable`; this wires them to the connection, the clock and the callers.

extension SyncedDocument {
    /// Sets what this client shows the others on the document (a name, a cursor), or `nil` (or
    /// `.null`) to announce leaving. Sent at once when connected, and on every connection after;
    /// renewed every 15 s while unchanged, so the others keep it.
    /// - Throws: ``SyncClientError`` `.presenceTooLarge` when the state's JSON text is over
    ///   32 KiB (the server would close the connection for it; nothing is sent or kept),
    ///   `.closed` after ``close()``.
    public func setPresence(_ state: JSONValue?) throws(SyncClientError) {
        guard !isClosed else { throw SyncClientError(.closed) }
        let entry = try presence.setLocal(state, at: presenceClock.now())
        sendPresence(entry)
        if presence.localState != nil { presenceMayFallDue(at: presence.localUpdated + PresenceTable.renewalInterval) }
    }

    /// This client's own presence, as last set; `nil` when not present.
    public var localPresence: JSONValue? { presence.localState }

    /// The other clients present on the document: client id → state. Empty while offline: a
    /// lost connection drops them until the next one tells who is there.
    public var remotePresence: [Int: JSONValue] { presence.remote.mapValues(\.state) }

    /// Changes to the other clients' presence from now on: who arrived, changed state or left
    /// (read their states from ``remotePresence``). Holds the newest 1,024 changes for a slow
    /// consumer and drops older ones. Ends at ``close()``.
    public func presenceChanges() -> AsyncStream<PresenceChange> {
        let (stream, sink) = AsyncStream.makeStream(of: PresenceChange.self, bufferingPolicy: .bufferingNewest(1_024))
        if isClosed {
            sink.finish()
            return stream
        }
        nextSinkID += 1
        let id = nextSinkID
        presenceSinks[id] = sink
        sink.onTermination = { [weak self] _ in Task { await self?.removePresenceSink(id) } }
        return stream
    }

    private func removePresenceSink(_ id: Int) { presenceSinks[id] = nil }

    // MARK: - The connection's part

    /// A new connection: our state (when present) and a query for everyone else's.
    func presenceConnected() {
        answerPresenceQuery()
        connection?.send(SyncMessage.queryAwareness.encoded())
    }

    /// An awareness update from the server.
    func receivePresence(_ bytes: [UInt8]) throws(SyncMessageError) {
        let now = presenceClock.now()
        let (change, answer) = presence.apply(try AwarenessUpdate(decoding: bytes), at: now)
        if let answer {
            sendPresence(answer)
            if presence.localState != nil { presenceMayFallDue(at: now + PresenceTable.renewalInterval) }
        }
        if !change.added.isEmpty || !change.updated.isEmpty { presenceMayFallDue(at: now + PresenceTable.outdatedTimeout) }
        publishPresence(change)
    }

    /// The server asks who is here: our own entry, when present.
    func answerPresenceQuery() {
        if presence.localState != nil { sendPresence(presence.localEntry) }
    }

    func presenceDisconnected() {
        publishPresence(presence.dropRemote())
    }

    /// At ``close()``: the others are told we left (when connected); the timer and the change
    /// streams end.
    func endPresence() {
        presenceTimer?.cancel()
        presenceTimer = nil
        presenceTimerTarget = nil
        if presence.localState != nil, let leaving = try? presence.setLocal(nil, at: presenceClock.now()) {
            sendPresence(leaving)
        }
        for sink in presenceSinks.values { sink.finish() }
        presenceSinks = [:]
    }

    private func sendPresence(_ entry: AwarenessUpdate.Entry) {
        connection?.send(SyncMessage.awareness(AwarenessUpdate(entries: [entry]).encoded()).encoded())
    }

    private func publishPresence(_ change: PresenceChange) {
        guard !change.isEmpty else { return }
        for sink in presenceSinks.values { sink.yield(change) }
    }

    // MARK: - Renewal and timeouts

    // One timer, asleep until the earliest renewal or timeout it knows of. A remote client's
    // timeout is never earlier than what the timer already waits for, so only a local change
    // can move it earlier (and restart it); when it wakes it handles what is due, then sleeps
    // again for at least a second, so 10,000 clients with spread timeouts cost one pass a second.

    /// Something may fall due at `time`: wakes the timer then if it would sleep longer.
    private func presenceMayFallDue(at time: Duration) {
        if presenceTimer != nil, let target = presenceTimerTarget, target <= time { return }
        presenceTimer?.cancel()
        startPresenceTimer(until: time)
    }

    private func startPresenceTimer(until target: Duration) {
        presenceTimerTarget = target
        let clock = presenceClock
        presenceTimer = Task {
            do { try await clock.sleepUntil(target) } catch { return }
            self.presenceTimerFired()
        }
    }

    private func presenceTimerFired() {
        // A timer replaced while its wake-up was on the way is cancelled: the new one runs.
        guard !Task.isCancelled, !isClosed else { return }
        presenceTimer = nil
        presenceTimerTarget = nil
        let now = presenceClock.now()
        let (renewal, change) = presence.expire(at: now)
        if let renewal { sendPresence(renewal) }
        publishPresence(change)
        if let next = presence.nextDeadline { startPresenceTimer(until: max(next, now + .seconds(1))) }
    }
}
