/// An error no script handled: nothing awaited it, so it reaches the engine's owner instead.
public struct UnhandledError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// A promise rejected with no handler, including an error thrown inside a `.then` callback.
        case unhandledRejection
        /// A `setTimeout`/`setInterval`/`queueMicrotask` callback threw.
        case uncaughtException
        /// The execution time limit stopped a promise reaction or microtask, after the
        /// entry that queued it had already returned (`error.sourceURL`/`line` say where).
        case timeLimitExceeded
    }

    public var kind: Kind
    public var error: JavaScriptError
    /// For ``Kind-swift.enum/timeLimitExceeded``: the stop (kind, file, line of the loop, limit);
    /// `error` carries the same file and line, and ``ScriptStop/description`` as its message.
    public var stop: ScriptStop?

    public init(kind: Kind, error: JavaScriptError, stop: ScriptStop? = nil) {
        self.kind = kind
        self.error = error
        self.stop = stop
    }

    public var description: String {
        switch kind {
        case .unhandledRejection: "unhandled promise rejection: \(error)"
        case .uncaughtException: "uncaught exception: \(error)"
        case .timeLimitExceeded: "script stopped by the time limit: \(error)"
        }
    }
}
