#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// Surviving what the execution time limit stops (docs/engine.md, "Execution time limit").
///
/// JavaScriptCore runs promise reactions and other microtasks when the outermost call into
/// it returns, after that call's own result is decided. When the limit stops one of them,
/// the call returns normally and the termination stays *pending* in the VM: the next call
/// into JavaScript receives it instead, and if that call reaches a native function first,
/// JavaScriptCore aborts the process (checked with JSC 2.50.6: a runaway `.then` followed by
/// a timer whose callback calls `console.log`). So after every outermost entry during which
/// the limit fired, the context runs a probe — a script that calls nothing native — until
/// one comes back clean: the probe absorbs the pending termination. A stop the entry did not
/// report itself (one inside a microtask) is reported once, as `UnhandledError` of kind
/// `.timeLimitExceeded`, with the place JavaScriptCore's backtrace named.
extension ScriptContext {
    /// Runs one call into JavaScript; the outermost one settles a stop afterwards.
    func enter<T>(_ body: () throws -> T) throws -> T {
        let outermost = entryDepth == 0
        if outermost {
            timeLimitFired = false
            stoppedInEntry = false
        }
        entryDepth += 1
        defer {
            entryDepth -= 1
            if outermost && stoppedInEntry { settleStop() }
        }
        return try body()
    }

    /// Absorbs a pending termination and reports a stop no caller saw. Gives the context up
    /// (`close()`, so later calls throw `EngineError.closed`) if probes keep failing.
    private func settleStop() {
        let unreported = timeLimitFired
        let location = stopLocation
        timeLimitFired = false
        stoppedInEntry = false
        guard let context, let probe = "void 0".jsStringRetained() else { return }
        defer { JSStringRelease(probe) }
        var clean = false
        for _ in 0..<Self.probeAttempts {
            var exception: JSValueRef?
            entryDepth += 1
            JSEvaluateScript(context, probe, nil, nil, 1, &exception)
            entryDepth -= 1
            if exception == nil { clean = true; break }
        }
        timeLimitFired = false
        stoppedInEntry = false
        if unreported {
            let message = "a microtask (a promise reaction or queueMicrotask callback) ran longer than the execution time limit"
                + (configuration.executionTimeLimit.map { " of \($0)" } ?? "") + " and was stopped; the microtasks queued after it were dropped"
            reportUnhandled(UnhandledError(kind: .timeLimitExceeded, error: JavaScriptError(
                name: "TimeLimitExceeded", message: message, sourceURL: location?.sourceURL, line: location?.line,
                stack: location.map { "\($0.function)@\($0.sourceURL):\($0.line)" })))
        }
        if !clean {
            logger.error("the context stayed terminated after \(Self.probeAttempts) probes; it is closed")
            close()
        }
    }

    static let probeAttempts = 4
}
