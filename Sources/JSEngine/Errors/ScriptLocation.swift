import Foundation

/// Where a script was running: a source URL, a line, and the function there.
///
/// Read from JavaScriptCore's backtrace when the execution time limit stops a script, so the
/// report names the runaway code rather than whatever entry happened to be running (a
/// promise reaction runs after the script that queued it has returned).
public struct ScriptLocation: Sendable, Equatable, CustomStringConvertible {
    /// The script's source URL; empty for code without one (JSC's own builtins).
    public var sourceURL: String
    public var line: Int
    /// The function's name, `global code` for a script's top level.
    public var function: String
    /// JavaScriptCore's whole backtrace at the stop (`#0 name() at url:line` a line), our
    /// own frames included; empty when not read from one.
    public var stack: String

    public init(sourceURL: String, line: Int, function: String, stack: String = "") {
        self.sourceURL = sourceURL
        self.line = line
        self.function = function
        self.stack = stack
    }

    /// `url:line (function)`.
    public var description: String { "\(sourceURL.isEmpty ? "<script>" : sourceURL):\(line) (\(function))" }

    /// Whether this names StateHub's own scripts (`statehub:` URLs) rather than the page's code.
    var isOurs: Bool { sourceURL.hasPrefix("statehub:") }

    /// The place to blame for a stop, from what is known: `earlier`, a stop already recorded in
    /// this turn; `here`, the backtrace at this stop; `forcedAt`, where the page was when a
    /// native call found the turn over its limit. Page code wins over StateHub's own scripts,
    /// and an earlier stop over a later one (after a stopped action the turn's remaining
    /// microtasks — the plugin's flush — are stopped too, and must not take the blame).
    static func blame(earlier: ScriptLocation?, here: ScriptLocation?, forcedAt: ScriptLocation?) -> ScriptLocation? {
        for candidate in [earlier, here, forcedAt] {
            if let candidate, !candidate.isOurs { return candidate }
        }
        return earlier ?? here ?? forcedAt
    }

    /// The innermost frame of the page's own code, from a JSC backtrace (`#0 spin() at page.js:3`
    /// a line): frames of builtins (`promiseReactionJob() at :1`) are skipped, and so are
    /// StateHub's own scripts (`statehub:` URLs — the runtime, the plugin, chunking) unless
    /// no other frame has a URL: a stop inside the plugin's bookkeeping names the action that
    /// ran away, not the plugin. `stack` keeps the whole backtrace.
    static func innermost(inBacktrace text: String) -> ScriptLocation? { innermostFrame(inBacktrace: text)?.location }

    /// ``innermost(inBacktrace:)`` and whether it is the backtrace's first frame with a URL
    /// (`atTop`): there JavaScriptCore's line is where it stopped (a loop's head, mapped to the
    /// expression before it); below, the line of the call the page was making, exact.
    static func innermostFrame(inBacktrace text: String) -> (location: ScriptLocation, atTop: Bool)? {
        var ours: (location: ScriptLocation, atTop: Bool)?
        var framesWithURL = 0
        for frame in text.split(separator: "\n") {
            guard let at = frame.range(of: " at ", options: .backwards) else { continue }
            let place = frame[at.upperBound...]
            guard let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) else { continue }
            let url = String(place[..<colon])
            guard !url.isEmpty else { continue }
            var name = frame[..<at.lowerBound]
            if let space = name.firstIndex(of: " ") { name = name[name.index(after: space)...] }
            if name.hasSuffix("()") { name = name.dropLast(2) }
            let location = ScriptLocation(sourceURL: url, line: line, function: name.isEmpty ? "anonymous" : String(name), stack: text)
            framesWithURL += 1
            if url.hasPrefix("statehub:") {
                if ours == nil { ours = (location, framesWithURL == 1) }
                continue
            }
            return (location, framesWithURL == 1)
        }
        return ours
    }
}
