import SharedDocument
import StateHubJSON

/// y-protocols' awareness rules for one client (docs/sync.md §3.5): our own state and clock, the
/// other clients present, and when each must be renewed or dropped. Pure: no I/O and no clock of
/// its own; every time is a duration since the document opened, given by the caller.
struct PresenceTable {
    /// The longest local or remote state, as JSON text (the server's `maxAwarenessStateBytes`).
    static let maximumStateBytes = 32 << 10
    /// Remote clients held at once (the server's `maxAwarenessClientsPerDocument`).
    static let maximumRemoteClients = 10_000
    /// Clients that left whose removal clock is remembered; past it the record starts again.
    static let maximumDepartedClients = 10_000
    /// An unchanged local state is sent again after this long (y-protocols: `outdatedTimeout / 2`).
    static let renewalInterval = Duration.seconds(15)
    /// A remote client not heard from for this long is dropped (y-protocols' `outdatedTimeout`).
    static let outdatedTimeout = Duration.seconds(30)

    struct Remote: Equatable {
        var clock: Int
        var state: JSONValue
        var lastHeard: Duration
    }

    let localClient: Int
    private(set) var localState: JSONValue?
    /// Our clock: raised by every local change and renewal, and past any newer one told to us.
    private(set) var localClock = 0
    /// When the local state was last set or renewed.
    private(set) var localUpdated: Duration = .zero
    private(set) var remote: [Int: Remote] = [:]
    /// Clients that left: the clock of their removal, so an older state of theirs is refused.
    private(set) var departed: [Int: Int] = [:]

    init(localClient: Int) {
        self.localClient = localClient
    }

    /// Our entry as it goes on the wire.
    var localEntry: AwarenessUpdate.Entry {
        AwarenessUpdate.Entry(client: localClient, clock: localClock, state: localState?.jsonText() ?? "null")
    }

    /// Sets our state (`nil` or `.null`: not present) with the next clock and returns the entry to send.
    /// - Throws: ``SyncClientError`` `.presenceTooLarge` when its JSON text is over
    ///   ``maximumStateBytes``; nothing changes then.
    mutating func setLocal(_ state: JSONValue?, at now: Duration) throws(SyncClientError) -> AwarenessUpdate.Entry {
        let present = state.flatMap { $0.isNull ? nil : $0 }
        if let present {
            let bytes = present.jsonText().utf8.count
            guard bytes <= Self.maximumStateBytes else {
                throw SyncClientError(.presenceTooLarge(bytes: bytes, maximum: Self.maximumStateBytes))
            }
        }
        localState = present
        localClock += 1
        localUpdated = now
        return localEntry
    }

    /// Applies an awareness update from the server. Returns what changed among the remote
    /// clients, and the entry to send back when the update spoke for our own client.
    mutating func apply(_ update: AwarenessUpdate, at now: Duration) -> (change: PresenceChange, answer: AwarenessUpdate.Entry?) {
        var change = PresenceChange()
        var answer: AwarenessUpdate.Entry?
        for entry in update.entries {
            if entry.client == localClient {
                answer = answerForOwn(entry, at: now) ?? answer
                continue
            }
            let held = remote[entry.client]
            let known = held?.clock ?? departed[entry.client] ?? 0
            guard known < entry.clock || (known == entry.clock && entry.isRemoval && held != nil) else { continue }
            if entry.isRemoval {
                remote[entry.client] = nil
                rememberDeparture(entry.client, clock: entry.clock)
                if held != nil { change.removed.append(entry.client) }
                continue
            }
            guard entry.state.utf8.count <= Self.maximumStateBytes,
                  held != nil || remote.count < Self.maximumRemoteClients,
                  let state = try? JSONParser().parse(entry.state) else { continue }
            remote[entry.client] = Remote(clock: entry.clock, state: state, lastHeard: now)
            departed[entry.client] = nil
            if let held {
                if held.state != state { change.updated.append(entry.client) }
            } else {
                change.added.append(entry.client)
            }
        }
        return (change, answer)
    }

    /// An entry for our own client id is never taken as our state: past our clock (or our
    /// removal at our clock while present) we take its clock and answer with our state one
    /// clock later, or a removal when we have none and it said we were present.
    private mutating func answerForOwn(_ entry: AwarenessUpdate.Entry, at now: Duration) -> AwarenessUpdate.Entry? {
        let removedWhilePresent = entry.clock == localClock && entry.isRemoval && localState != nil
        guard entry.clock > localClock || removedWhilePresent else { return nil }
        localClock = entry.clock
        guard localState != nil || !entry.isRemoval else { return nil }
        localClock += 1
        localUpdated = now
        return localEntry
    }

    private mutating func rememberDeparture(_ client: Int, clock: Int) {
        if departed[client] == nil, departed.count >= Self.maximumDepartedClients { departed.removeAll() }
        departed[client] = clock
    }

    /// What is due at `now`: the local state's renewal (the entry to send) and the remote
    /// clients silent for ``outdatedTimeout``, dropped (their clocks forgotten).
    mutating func expire(at now: Duration) -> (renewal: AwarenessUpdate.Entry?, change: PresenceChange) {
        var renewal: AwarenessUpdate.Entry?
        if localState != nil, now - localUpdated >= Self.renewalInterval {
            localClock += 1
            localUpdated = now
            renewal = localEntry
        }
        var change = PresenceChange()
        for (client, held) in remote where now - held.lastHeard >= Self.outdatedTimeout {
            remote[client] = nil
            change.removed.append(client)
        }
        change.removed.sort()
        return (renewal, change)
    }

    /// Drops every remote client (the connection is gone: none of them can be heard). Their
    /// clocks are forgotten, as for a client dropped for silence, so the next connection's
    /// answer brings them back at the clocks they have.
    mutating func dropRemote() -> PresenceChange {
        let removed = remote.keys.sorted()
        remote.removeAll()
        return PresenceChange(removed: removed)
    }

    /// The earliest time something may be due: the local renewal or a remote client's timeout.
    /// - Complexity: O(remote clients).
    var nextDeadline: Duration? {
        let renewal = localState == nil ? nil : localUpdated + Self.renewalInterval
        let timeout = remote.values.lazy.map { $0.lastHeard + Self.outdatedTimeout }.min()
        return [renewal, timeout].compactMap { $0 }.min()
    }
}
