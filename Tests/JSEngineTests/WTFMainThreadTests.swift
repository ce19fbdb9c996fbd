import Foundation
import Testing
@testable import JSEngine

/// JSC's full-GC activity timer, firing on an engine thread, builds WTF's memory-pressure
/// handler, which needs WTF's main run loop: the C API never initialises it, and without
/// `JSCMainThread` the engine thread crashes on a null read (docs/engine.md, "WTF main thread").
@Suite("WTF main thread", .tags(.engine))
struct WTFMainThreadTests {
    #if canImport(CJSCore)
    @Test func wtfMainThreadIsItsOwnThreadNotAnEngineThread() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "wtf-main"))
        #expect(JSCMainThread.ensureStarted() == .running)
        #expect(!JSCMainThread.isCurrentThreadMain)
        let onEngineThread = await engine.perform { _ in JSCMainThread.isCurrentThreadMain }
        #expect(!onEngineThread)
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
            try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.contains(JSCMainThread.threadName))
    }
    #endif

    /// Allocation that keeps part of what it makes, with idle gaps in which the engine thread
    /// iterates its run loop: JSC schedules its full-GC timer and it fires there. Without
    /// WTF's main thread set up, this crashed the process within 1–8 s in every run tried
    /// (release, debug, ASan).
    @Test func fullGarbageCollectionTimerFiresSafely() async throws {
        let script = """
        globalThis.retained = globalThis.retained || [];
        var keep = [];
        for (let i = 0; i < 2000; i++) keep.push({ a: i, b: 'x' + i, c: [i, i + 1] });
        retained.push(keep.slice(0, 50));
        if (retained.length > 3000) retained = [];
        keep.length
        """
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(8)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<2 {
                group.addTask {
                    let engine = try JavaScriptEngine(configuration: .init(name: "full-gc-\(index)"))
                    var runs = 0
                    // At least one run even when a loaded machine passes the deadline first.
                    repeat {
                        try await engine.execute(script)
                        runs += 1
                        if runs % 50 == 0 { try await Task.sleep(for: .milliseconds(300)) }
                    } while clock.now < deadline
                    #expect(try await engine.evaluate("retained.length").numberValue ?? 0 > 0)
                    await engine.close()
                    return runs
                }
            }
            for try await runs in group { #expect(runs > 0) }
        }
    }
}
