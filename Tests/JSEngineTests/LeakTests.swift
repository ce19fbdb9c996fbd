import Foundation
import Testing
@testable import JSEngine

/// Memory and threads come back. Counts here are modest (the full check — 100,000 cycles and
/// 1,000 engines — is `EngineLeakCheck()` with its defaults; see docs/engine.md, "Leak check").
/// The check runs in a child process (an exit test), so resident memory is its own and not
/// that of the suites running beside it; a leaked engine costs megabytes, so 150 of them would
/// show far beyond the bound.
@Suite("Leaks", .tags(.integration), .serialized)
struct LeakTests {
    static let addressSanitized = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil

    /// Exit statuses the child uses to say which bound was passed.
    enum Bound: Int32 { case cycles = 10, engines = 11, threads = 12 }

    @Test func cyclesAndEnginesDoNotGrow() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let report = try await EngineLeakCheck(cycles: 10_000, engines: 150).run()
            let failed: Bound?
            // Under AddressSanitizer freed memory sits in quarantine: resident memory says nothing.
            if !LeakTests.addressSanitized, (report.cycleGrowth ?? .max) >= 48 << 20 {
                failed = .cycles
            } else if !LeakTests.addressSanitized, (report.engineGrowth ?? .max) >= 96 << 20 {
                failed = .engines
            } else if (report.engineThreadsAfter ?? 0) > (report.engineThreadsBefore ?? 0) {
                // An engine thread left behind. Fewer is no leak: a JavaScriptCore helper thread
                // that inherited the name may end during the check (failed once under load).
                failed = .threads
            } else {
                failed = nil
            }
            if let failed {
                FileHandle.standardError.write(Data("\(report)\n".utf8))
                exit(failed.rawValue)
            }
        }
        if let result, result.exitStatus != .exitCode(EXIT_SUCCESS) {
            Issue.record("the check's report: \(String(decoding: result.standardErrorContent, as: UTF8.self))")
        }
    }

    @Test func engineThreadEndsWhenEngineIsReleased() async throws {
        var threads: [EngineThread] = []
        for _ in 0..<20 {
            let engine = try JavaScriptEngine(configuration: .init(name: "thread-end"))
            try await engine.evaluate("setTimeout(() => {}, 60000)") // a pending real timer does not keep it alive
            threads.append(engine.thread)
        }
        #expect(await ProcessFigures.waitForExit(of: threads))
        // Work posted to an ended thread is dropped, never run, and wakes nothing freed: `post`
        // drops it before it returns (under the queue's lock), so nothing can run it later.
        let ran = Recorder<Int>()
        for thread in threads { thread.post { ran.append(1) } }
        #expect(ran.count == 0)
    }

    @Test func heldFunctionsReleasedAfterTheirEngine() async throws {
        var functions: [JSFunction] = []
        do {
            let engine = try JavaScriptEngine()
            for index in 0..<100 { functions.append(try await engine.function("() => \(index)")) }
            #expect(try await engine.call(functions[99]) == 99)
        }
        // Dropping handles after the engine (and its thread) are gone is harmless.
        #expect(await ProcessFigures.waitForExit(of: functions.map(\.thread)))
        functions.removeAll()
        #expect(functions.isEmpty)
    }
}
