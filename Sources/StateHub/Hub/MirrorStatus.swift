/// Whether a store's mirror can be trusted to equal the pages' state
/// (``GlobalStateHub/mirrorStatus(of:)``, docs/hub.md "Mirror status").
public enum MirrorStatus: Sendable, Equatable {
    /// Every hosting page's messages were applied in order: the mirror is the store's state.
    case current
    /// The hub asked a page for its whole state (after a sequence gap, a refused message or
    /// a stop) or hydrated a joining page, and the answer has not arrived yet. Writes from
    /// that page are held back until it does.
    case resyncing
    /// The hub gave up waiting: every answer to its resync requests was stopped at the
    /// page's time limit (serialising the state takes longer than the limit allows), so the
    /// mirror may stay behind the page until the page sends a whole state again (any
    /// `sync_state`, or ``GlobalStateHub/requestSync(store:reason:)`` answered). The hub
    /// recorded a ``HubProblem/Kind-swift.enum/mirrorStale(reason:)`` problem saying why.
    case stale(reason: String)
}
