/// Errors the engine itself raises, as opposed to exceptions thrown by JavaScript.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine was closed; nothing more runs in it.
    case closed
    /// A script ran longer than the engine's execution time limit and was stopped at
    /// `location` (when JavaScriptCore could say). The engine stays usable.
    case executionTimeLimitExceeded(limit: Duration, location: ScriptLocation? = nil)
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
        case .closed: "the engine is closed"
        case .executionTimeLimitExceeded(let limit, let location):
            "script stopped\(location.map { " at \($0)" } ?? ""): it ran longer than the execution time limit of \(limit)"
        case .timeout(let after): "the promise did not settle within \(after)"
        case .conversion(let error): error.description
        case .notIdle(let fired): "not idle after firing \(fired) timers: timers keep scheduling timers"
        case .wrongClock(let why): why
        case .invalidName(let name): "not a usable name: \(name)"
        }
    }
}
