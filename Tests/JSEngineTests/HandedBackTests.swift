import Foundation
import StateHubTestSupport
import Testing
@testable import JSEngine

/// JavaScriptCore runs `FinalizationRegistry` cleanup
/// callbacks from its run loop, outside every call the engine makes. Run there, a looping
/// callback is stopped by the watchdog but nothing settles the stop: the next timer batch meets
/// the pending termination (`TypeError: null is not an object (evaluating 'callbacks.length')`),
/// later timers are lost, and no stop is reported; a throwing callback is printed by
/// JavaScriptCore to stderr and otherwise lost. The engine hands that work back to its own turns;
/// these tests hold it to that. Each case runs in a child process: a callback that is never
/// stopped keeps its engine thread for good.
@Suite("Work JavaScriptCore runs from its run loop: stopped, reported, and the engine goes on", .tags(.integration))
struct HandedBackTests {
    enum Check: Int32 { case noReport = 20, wrongReport = 21, laterTimerLost = 22, laterCallFailed = 23 }

    /// Registers garbage until the engine reports something: cleanup callbacks run only after
    /// a garbage collection, which allocation brings on, and from JavaScriptCore's run loop,
    /// which the engine iterates between its jobs. Each round ends with a timer's round trip
    /// (a pass of that loop), never a sleep; `eventWaitDeadline` only guards against a hang.
    static func collectUntilReported(_ engine: JavaScriptEngine, _ reported: Recorder<UnhandledError>) async throws {
        let deadline = ContinuousClock.now + eventWaitDeadline
        while reported.values.isEmpty, ContinuousClock.now < deadline {
            try await engine.execute("for (let i = 0; i < 20000; i++) registry.register({ padding: new Array(100) }, i);", sourceURL: "garbage.js")
            _ = try await engine.evaluateAndAwait("new Promise((settle) => setTimeout(settle, 0))", sourceURL: "pass.js")
        }
        guard !reported.values.isEmpty else { exit(Check.noReport.rawValue) }
    }

    /// A timer set after the stop fires (its promise, awaited, settles from its callback), and
    /// the engine answers calls.
    static func expectUsable(_ engine: JavaScriptEngine) async throws {
        do {
            guard try await engine.evaluateAndAwait("new Promise((settle) => setTimeout(() => settle(true), 1))", sourceURL: "after.js",
                                                   timeout: eventWaitDeadline) == true else { exit(Check.laterTimerLost.rawValue) }
        } catch EngineError.timeout {
            exit(Check.laterTimerLost.rawValue)
        }
        guard try await engine.evaluate("1 + 1") == 2,
              try await engine.evaluateAndAwait("(async () => { await null; return 'awaited'; })()") == "awaited" else {
            exit(Check.laterCallFailed.rawValue)
        }
    }

    static func stopOfLoopingCallback(_ body: String) async throws {
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
        // Only the first callback runs away: each later one would be stopped in its own turn.
        try await engine.execute("globalThis.registry = new FinalizationRegistry(function cleanup(held) {\n  if (!globalThis.ranAway) { globalThis.ranAway = true; \(body) }\n});", sourceURL: "registry.js")
        try await collectUntilReported(engine, reported)
        guard let first = reported.values.first, first.kind == .timeLimitExceeded, first.stop?.kind == .finalizer,
              first.stop?.entry == .finalizer, first.error.sourceURL == "registry.js", first.error.line == 2 else {
            FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
            exit(Check.wrongReport.rawValue)
        }
        try await expectUsable(engine)
    }

    /// A loop that calls nothing native: the watchdog stops it.
    @Test func aCallbackLoopingWithoutNativeCallsIsStopped() async {
        await #expect(processExitsWith: .success) {
            try await HandedBackTests.stopOfLoopingCallback("for (;;) {}")
        }
    }

    /// A loop of native calls: the turn's check at a native call stops it.
    @Test func aCallbackLoopingOnNativeCallsIsStopped() async {
        await #expect(processExitsWith: .success) {
            try await HandedBackTests.stopOfLoopingCallback("for (;;) { performance.now(); }")
        }
    }

    /// What a callback throws is an uncaught exception the owner hears of, with its message.
    @Test func whatACallbackThrowsIsReported() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
            try await engine.execute("""
                globalThis.registry = new FinalizationRegistry(function cleanup(held) {
                  if (!globalThis.threw) { globalThis.threw = true; throw new RangeError("cleanup of " + typeof held); }
                });
                """, sourceURL: "registry.js")
            guard try await engine.evaluate("registry instanceof FinalizationRegistry && FinalizationRegistry.name === 'FinalizationRegistry'") == true else {
                exit(Check.wrongReport.rawValue)
            }
            try await HandedBackTests.collectUntilReported(engine, reported)
            guard let first = reported.values.first, first.kind == .uncaughtException, first.error.name == "RangeError",
                  first.error.message == "cleanup of number", first.error.sourceURL == "registry.js" else {
                FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
                exit(Check.wrongReport.rawValue)
            }
            try await HandedBackTests.expectUsable(engine)
        }
    }

    /// The reactions to a WebAssembly compile ran from JavaScriptCore's run loop too: a loop
    /// there was stopped unreported and every later promise stayed pending.
    @Test func aLoopAfterAWebAssemblyCompileIsStopped() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
            try await engine.execute("""
                WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(function compiled(module) {
                  for (;;) {}
                });
                """, sourceURL: "wasm.js")
            guard await reported.wait(forCount: 1, of: "reports of the stop") else { exit(Check.noReport.rawValue) }
            guard let first = reported.values.first, first.kind == .timeLimitExceeded, first.stop?.kind == .microtask,
                  first.error.sourceURL == "wasm.js", first.error.line == 2 else {
                FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
                exit(Check.wrongReport.rawValue)
            }
            guard try await engine.evaluateAndAwait("WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(r => typeof r.instance)") == "object" else {
                exit(Check.laterCallFailed.rawValue)
            }
            try await HandedBackTests.expectUsable(engine)
        }
    }

    /// A module's start function (and any import it calls) runs in one of the engine's turns,
    /// not inside JavaScriptCore's own instantiation from its run loop, where a loop would be
    /// cut off unreported, the promise never settle and every later promise stay pending.
    @Test func aLoopInAWebAssemblyStartFunctionIsStopped() async {
        await #expect(processExitsWith: .success) {
            let reported = Recorder<UnhandledError>()
            let engine = try JavaScriptEngine(configuration: .init(executionTimeLimit: .milliseconds(200), onUnhandledError: { reported.append($0) }))
            // (module (import "m" "f" (func)) (start 0))
            try await engine.execute("""
                const bytes = new Uint8Array([0,97,115,109,1,0,0,0, 1,4,1,96,0,0, 2,7,1,1,109,1,102,0,0, 8,1,0]);
                WebAssembly.instantiate(bytes, { m: { f() {
                  for (;;) {}
                } } });
                """, sourceURL: "start.js")
            guard await reported.wait(forCount: 1, of: "reports of the stop") else { exit(Check.noReport.rawValue) }
            guard let first = reported.values.first, first.kind == .timeLimitExceeded, first.error.sourceURL == "start.js", first.error.line == 3 else {
                FileHandle.standardError.write(Data("reports: \(reported.values)\n".utf8))
                exit(Check.wrongReport.rawValue)
            }
            try await HandedBackTests.expectUsable(engine)
        }
    }

    /// The wrappers take `Reflect.construct` when the engine starts: a page that replaces it
    /// later is not handed the engine's own `FinalizationRegistry` (whose cleanups would run
    /// where no stop is settled).
    @Test func theEnginesOwnConstructorStaysOutOfReach() async throws {
        let engine = try JavaScriptEngine()
        let leaked = try await engine.evaluate("""
            (() => {
              let seen = [];
              const original = Reflect.construct;
              Reflect.construct = function (target, args, newTarget) { seen.push(target); return original(target, args, newTarget); };
              new FinalizationRegistry(() => {});
              class Sub extends FinalizationRegistry {}
              new Sub(() => {});
              Reflect.construct = original;
              const instance = new FinalizationRegistry(() => {});
              return seen.some(t => t !== FinalizationRegistry && t !== Sub) || Object.getPrototypeOf(instance).constructor !== FinalizationRegistry;
            })()
            """)
        #expect(leaked == false)
    }
}
