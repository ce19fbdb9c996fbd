import Testing
@testable import JSEngine

/// Which place a time-limit stop is blamed on (issue 11): the page's code, never StateHub's own
/// scripts when the page's code is known, and the first stop of a turn over later ones.
@Suite("Script location of a stop")
struct ScriptLocationTests {
    /// The backtrace JavaScriptCore gave at a stopped `go() { while (true) this.x++ }`.
    static let actionStop = """
        #0 drainDeliveries() at statehub:runtime/pinia.js:180
        #1 endWrite() at statehub:runtime/reactivity.js:180
        #2 performProxyObjectSetSloppy() at :1
        #3 go() at writer.js:3
        #4 wrapped() at statehub:runtime/pinia.js:397
        """
    /// The backtrace at the plugin's flush, stopped next in the same turn.
    static let flushStop = """
        #0 () at [native code]
        #1 getRandomValues() at statehub:web-globals.js:60
        #2 randomHex() at statehub:plugin/chunking.js:38
        #3 promiseReactionJob() at :1
        """

    @Test func theInnermostPageFrameIsNamedAndOurFramesAreSkipped() {
        let location = ScriptLocation.innermost(inBacktrace: Self.actionStop)
        #expect(location.map { [$0.sourceURL, String($0.line), $0.function] } == ["writer.js", "3", "go"])
        #expect(ScriptLocation.innermost(inBacktrace: Self.flushStop)?.sourceURL == "statehub:web-globals.js")
        #expect(ScriptLocation.innermost(inBacktrace: "#0 promiseReactionJob() at :1") == nil)
    }

    @Test func theFirstPageLocationOfATurnKeepsTheBlame() {
        let action = ScriptLocation.innermost(inBacktrace: Self.actionStop)
        let flush = ScriptLocation.innermost(inBacktrace: Self.flushStop)
        let forced = ScriptLocation(sourceURL: "requeue.js", line: 2, function: "again")
        // The plugin's flush stopped after the action: the action keeps the blame.
        #expect(ScriptLocation.blame(earlier: action, here: flush, forcedAt: nil) == action)
        // A stop between microtasks (no frame) or in our code: where the page's native call found the turn over.
        #expect(ScriptLocation.blame(earlier: nil, here: nil, forcedAt: forced) == forced)
        #expect(ScriptLocation.blame(earlier: nil, here: flush, forcedAt: forced) == forced)
        // Page code at the stop itself beats the earlier sighting at a native call.
        #expect(ScriptLocation.blame(earlier: nil, here: action, forcedAt: forced) == action)
        // Nothing of the page's known: our frame rather than nothing.
        #expect(ScriptLocation.blame(earlier: nil, here: flush, forcedAt: nil) == flush)
    }

    /// JavaScriptCore's line for a stopped loop is the last expression before the loop's head;
    /// the script's text names the loop, within the same block, past strings and comments.
    @Test func theLoopIsFoundFromTheLineJavaScriptCoreGives() {
        let top = "let x = 0;\nx++;\n// while (false) in a comment\nconst s = 'for ever';\nwhile (true) { x++ }\n"
        #expect(ScriptLocation.loopLine(in: top, from: 2) == 5)
        let function = "function spin() {\n  let a = 1;\n  for (;;) { a++ }\n}\nspin();\n"
        #expect(ScriptLocation.loopLine(in: function, from: 1) == 3)
        // A loop on the line itself stays; `do … while` counts; `format` and `done` are no keywords.
        #expect(ScriptLocation.loopLine(in: "a();\nfor (let i = 0; ; i++) {}", from: 2) == 2)
        #expect(ScriptLocation.loopLine(in: "let format = done;\ndo { x() } while (true)", from: 1) == 2)
        // The block that holds the line closes before any loop: the line stands.
        #expect(ScriptLocation.loopLine(in: "function f() {\n  g();\n}\nwhile (true) {}", from: 2) == nil)
        #expect(ScriptLocation.loopLine(in: "x", from: 5) == nil)
        let block = "/* for\n */ `while ${x}`;\nfor (;;) {}"
        #expect(ScriptLocation.loopLine(in: block, from: 1) == 3)
    }
}
