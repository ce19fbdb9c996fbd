/// Where the lines of an evaluated script came from, so that what the engine reports about it
/// names the original file and line, not the bundle's (an ES module bundled by esbuild, in stops,
/// problems and traces).
///
/// Given with the script (``JavaScriptEngine/execute(_:sourceURL:lineMap:)``), it is applied to
/// everything the engine builds about a place in that script: a ``ScriptStop`` and its
/// ``ScriptLocation`` (the backtrace in `stack` too), a `JavaScriptError`'s `sourceURL`, `line`,
/// `column` and `stack`, and so the hub's problems and the trace's `stopped` records made from
/// them. Text the page's own JavaScript builds (an `Error`'s `stack` read by a script, console
/// output) is not the engine's to change. The loop rules of a stop (docs/engine.md, "Which line
/// a stop names") read the evaluated text, so they run before the mapping.
public struct ScriptLineMap: Sendable {
    /// A place in an original source.
    public struct Place: Sendable, Equatable {
        public var sourceURL: String
        /// 1-based.
        public var line: Int
        /// 1-based; `nil` when the mapping does not know it.
        public var column: Int?

        public init(sourceURL: String, line: Int, column: Int? = nil) {
            self.sourceURL = sourceURL
            self.line = line
            self.column = column
        }
    }

    private let lookup: @Sendable (_ line: Int, _ column: Int?) -> Place?

    /// - Parameter lookup: the original place of a 1-based line (and column, when known) of the
    ///   evaluated script; `nil` for a line with no origin (a bundler's wrapper), which is then
    ///   reported as it is.
    public init(_ lookup: @escaping @Sendable (_ line: Int, _ column: Int?) -> Place?) {
        self.lookup = lookup
    }

    /// The original place of `line` (and `column`).
    public func place(line: Int, column: Int? = nil) -> Place? { lookup(line, column) }
}
