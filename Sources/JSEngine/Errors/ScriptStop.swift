/// A script the execution time limit stopped (or, for ``Kind-swift.enum/unstoppable``, one it
/// could not stop and reported): where, what kind of work it was, and after how long.
///
/// Every stop of an engine is one of these, whatever ran away — a script's top level, a call
/// from native (an action the hub dispatched), a timer callback, a microtask (a promise chain,
/// an `await` loop, `queueMicrotask`) — and reads the same: ``description`` is
/// `FILE:LINE: stopped after N s`. It reaches the engine's owner as
/// ``EngineError/executionTimeLimitExceeded(limit:location:kind:)`` (``EngineError/stop``),
/// as ``UnhandledError/stop`` for work no caller waited on, and through
/// ``PageTransport/onStop(_:)`` for every stop (the hub records each as a problem and a
/// `stopped` trace record).
public struct ScriptStop: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A script's top level, or a function it called.
        case script
        /// A function native code called (an action dispatched by the hub, a bridge reply).
        case call
        /// A `setTimeout` / `setInterval` callback.
        case timer
        /// A promise reaction, an `await` continuation or a `queueMicrotask` callback, run
        /// after the entry that queued it had returned.
        case microtask
        /// A `FinalizationRegistry` cleanup callback (the engine runs each in a turn of its own,
        /// after a garbage collection found its object gone).
        case finalizer
        /// A step a page's script registered for the recovery after a stop
        /// (`globalThis.__statehubStopRecovery`, docs/engine.md "Recovery after a stop"), run
        /// in a turn of its own before the next call.
        case recovery
        /// Microtasks that never call native code, which JavaScriptCore cannot stop: reported
        /// (once, from another thread) while the engine thread stays held; the owner ends it.
        case unstoppable
    }

    public var kind: Kind
    /// What the turn was entered through (`script`, `call` or `timer`): a microtask stopped in
    /// the turn of a call belongs to that call's caller.
    public var entry: Kind
    /// The page's file; `nil` when nothing named it.
    public var sourceURL: String?
    /// The line of the runaway loop (or, for a chain, where the page was when its turn ran out).
    public var line: Int?
    /// The function there (`global code` for a top level), when known.
    public var function: String?
    /// The time limit that stopped it; for ``Kind-swift.enum/unstoppable``, how long the turn had run.
    public var after: Duration

    public init(kind: Kind, entry: Kind, sourceURL: String?, line: Int?, function: String? = nil, after: Duration) {
        self.kind = kind
        self.entry = entry
        self.sourceURL = sourceURL
        self.line = line
        self.function = function
        self.after = after
    }

    init(kind: Kind, entry: Kind, location: ScriptLocation?, after: Duration) {
        self.init(kind: kind, entry: entry, sourceURL: location?.sourceURL, line: location?.line, function: location?.function, after: after)
    }

    /// `FILE:LINE`, `FILE` or `<script>`.
    public var place: String { (sourceURL.flatMap { $0.isEmpty ? nil : $0 } ?? "<script>") + (line.map { ":\($0)" } ?? "") }

    /// The seconds of ``after`` as the message prints them: `2`, `0.2`, `1.5`, `0.02` (to the millisecond,
    /// trailing zeros dropped: a 20 ms limit printed `0`).
    public var seconds: String {
        let milliseconds = Int(((Double(after.components.seconds) + Double(after.components.attoseconds) / 1e18) * 1_000).rounded())
        let whole = milliseconds / 1_000, fraction = milliseconds % 1_000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction + 1_000).dropFirst()   // three digits, leading zeros kept
        while digits.hasSuffix("0") { digits = digits.dropLast() }
        return "\(whole).\(digits)"
    }

    /// `FILE:LINE: stopped after N s`, the same for every kind.
    public var description: String { "\(place): stopped after \(seconds) s" }

    /// What ran away, in words (`a timer callback`), for a second line or a `--json` field.
    public var what: String {
        switch kind {
        case .script: "a script's top level"
        case .call: "a call from native (an action, say)"
        case .timer: "a timer callback"
        case .microtask: "a microtask (a promise chain, an await loop or a queueMicrotask callback)"
        case .finalizer: "a FinalizationRegistry callback"
        case .recovery: "the recovery after a stop (a step registered in __statehubStopRecovery)"
        case .unstoppable: "microtasks that never call native code (an await loop, a promise chain), which the time limit cannot stop"
        }
    }
}
