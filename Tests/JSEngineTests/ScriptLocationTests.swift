import Testing
@testable import JSEngine

/// Which place a time-limit stop is blamed on: the page's code, never StateHub's own
/// scripts when the page's code is known, and the first stop of a turn over later ones.
@Suite("Script location of a stop", .tags(.unit))
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
        // The frame's function begins and ends on the line: the next method's loop is not its
        // (a regular expression's backtracking named `other`'s line).
        let methods = "actions: {\n  redos() { return /(x+x+)+y/.test(s); },\n  other() { for (;;) {} }\n}"
        #expect(ScriptLocation.loopLine(in: methods, from: 2) == nil)
        #expect(ScriptLocation.loopLine(in: methods, from: 3) == 3)
        #expect(ScriptLocation.loopLine(in: "function f() {\n  const g = () => { h(); };\n  for (;;) {}\n}", from: 1) == 3)
        #expect(ScriptLocation.loopLine(in: "const o = { a: 1 };\nfor (;;) {}", from: 1) == 2)
        #expect(ScriptLocation.loopLine(in: "if (x) { y(); }\nfor (;;) {}", from: 1) == 2)
        #expect(ScriptLocation.loopLine(in: "const f = () => { g(); };\nwhile (1) {}", from: 1) == nil)
        #expect(ScriptLocation.loopLine(in: "x", from: 5) == nil)
        let block = "/* for\n */ `while ${x}`;\nfor (;;) {}"
        #expect(ScriptLocation.loopLine(in: block, from: 1) == 3)
    }

    /// A stop read where the body called something has the call's line: the stop names the
    /// loop around it, the innermost one (one rule for every stop).
    @Test func aLineInsideABodyNamesTheLoopAroundIt() {
        let action = """
            defineStore('a', {
              actions: {
                spin() {
                  let i = 0;
                  while (true) {
                    this.n = i++;
                    if (i > 3) { this.m = 'for ever' }
                  }
                },
                nested() {
                  for (let i = 0; i < 9; i++) {
                    do {
                      this.x++;
                    } while (true);
                  }
                },
                bare() { for (;;) this.step() },
                after() { for (const x of [1]) { } ; this.y = 1 },
                async waits() {
                  for await (const v of gen()) {
                    await null; this.n++;
                  }
                },
              },
            });
            """
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 6) == 5)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 7) == 5)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 13) == 12)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 12) == 12)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 17) == 17)
        // No column in a backtrace: a loop whose body begins on the line is taken to hold the call.
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 18) == 18)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 21) == 20)
        #expect(ScriptLocation.enclosingLoopLine(in: action, at: 4) == nil)
        // A top level, and a braceless loop whose statement is on the next line.
        #expect(ScriptLocation.enclosingLoopLine(in: "let i = 0;\nwhile (true) {\n  i++;\n}\n", at: 3) == 2)
        #expect(ScriptLocation.enclosingLoopLine(in: "while (true)\n  step();\nafter();", at: 2) == 1)
        #expect(ScriptLocation.enclosingLoopLine(in: "while (true)\n  step();\nafter();", at: 3) == nil)
        // The same rule from the loop's head: JavaScriptCore's line before it, read forward.
        let location = ScriptLocation(sourceURL: "a.js", line: 4, function: "spin")
        #expect(location.atLoop(in: action, atHead: true).line == 5)
        #expect(ScriptLocation(sourceURL: "a.js", line: 6, function: "spin").atLoop(in: action, atHead: false).line == 5)
    }
}

/// How a stop prints its limit: to the millisecond, trailing zeros dropped (a 20 ms limit
/// printed "stopped after 0 s" before).
@Suite("ScriptStop: the seconds it prints", .tags(.unit))
struct ScriptStopSecondsTests {
    @Test func secondsAreWrittenToTheMillisecond() {
        func seconds(_ after: Duration) -> String { ScriptStop(kind: .timer, entry: .timer, sourceURL: nil, line: nil, after: after).seconds }
        #expect(seconds(.seconds(2)) == "2")
        #expect(seconds(.milliseconds(300)) == "0.3")
        #expect(seconds(.milliseconds(1_500)) == "1.5")
        #expect(seconds(.milliseconds(20)) == "0.02")
        #expect(seconds(.milliseconds(1)) == "0.001")
        #expect(seconds(.microseconds(1_234_567)) == "1.235")
        #expect(seconds(.zero) == "0")
    }
}
