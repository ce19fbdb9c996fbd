/// Errors the engine itself raises, as opposed to exceptions thrown by JavaScript.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine was closed; nothing more runs in it.
    case closed
    /// A script ran longer than the engine's execution time limit and was stopped at
    /// `location` (when JavaScriptCore could say; its line is the loop's). `kind` says what
    /// ran away (``ScriptStop/Kind-swift.enum``); ``stop`` has it all as one value. The
    /// engine stays usable.
    case executionTimeLimitExceeded(limit: Duration, location: ScriptLocation? = nil, kind: ScriptStop.Kind = .script)
    /// A promise awaited from Swift did not settle in time.
    case timeout(after: Duration)
    /// A value could not be converted between JavaScript and JSON; `reason` says which part.
    case conversion(ValueConversionError)
    /// `runUntilIdle` gave up: timers kept scheduling timers (an interval, typically).
    case notIdle(firedTimers: Int)
    /// The operation needs the manual clock, and the engine runs on the real one (or the reverse).
    case wrongClock(String)
    /// A name or path given to the engine was not usable (`window.webkit..`, an empty name).
    case invalidName(String)

    public var description: String {
        switch self {
        case .closed: return "the engine is closed"
        case .executionTimeLimitExceeded(let limit, let location, let kind):
            let stop = ScriptStop(kind: kind, entry: kind, location: location, after: limit)
            return "\(stop) (\(stop.what)\(location.map { " in \($0.function)" } ?? "") ran past the execution time limit)"
        case .timeout(let after): return "the promise did not settle within \(after)"
        case .conversion(let error): return error.description
        case .notIdle(let fired): return "not idle after firing \(fired) timers: timers keep scheduling timers"
        case .wrongClock(let why): return why
        case .invalidName(let name): return "not a usable name: \(name)"
        }
    }
}

extension EngineError {
    /// The stop, for ``executionTimeLimitExceeded(limit:location:kind:)``; `nil` otherwise.
    public var stop: ScriptStop? {
        guard case .executionTimeLimitExceeded(let limit, let location, let kind) = self else { return nil }
        return ScriptStop(kind: kind, entry: kind == .microtask ? .call : kind, location: location, after: limit)
    }
}
