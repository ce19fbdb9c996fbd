#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// Page code JavaScriptCore would run from its own run loop, run by the engine in turns of its
/// own instead: `FinalizationRegistry` cleanup callbacks and what a `WebAssembly.compile` or
/// `WebAssembly.instantiate` promise's reactions do.
///
/// JavaScriptCore runs both from its run loop (its deferred work), outside every entry the
/// engine makes. Stopped there by the time limit, the page's code leaves the termination
/// unsettled and JavaScriptCore's microtask queue undrained for good (checked with 2.50.6:
/// every later promise of the engine stays pending, and no stop is reported), and what a
/// cleanup throws is printed to stderr by JavaScriptCore and lost. So the web globals give
/// JavaScriptCore callbacks that only hand the page's function and its argument back here
/// (one native call), and the engine thread runs them after each pass of its loop, each in
/// its own turn: a cleanup as kind ``ScriptStop/Kind-swift.enum/finalizer``, a settlement
/// (the `resolve` or `reject` of the promise the page holds) as a microtask's turn. Stops and
/// throws are reported as a timer callback's are.
extension ScriptContext {
    /// Calls run per pass of the loop at most, so a registry with many dead objects does
    /// not starve queued Swift work (the loop comes back at once while more are queued).
    static let handedBackBatchLimit = 1_000

    var hasHandedBack: Bool { !handedBack.isEmpty }

    /// `handBack(function, argument, kind)`, called by the wrappers JavaScriptCore runs; `kind`
    /// is `"finalizer"` or `"settlement"`.
    func queueHandedBack(_ arguments: UnsafeBufferPointer<JSValueRef?>) {
        guard let context, let first = arguments.first, let callbackValue = first, JSValueIsObject(context, callbackValue),
              let callback = JSValueToObject(context, callbackValue, nil), JSObjectIsFunction(context, callback) else { return }
        let heldValue = arguments.count > 1 ? arguments[1] : nil
        let kind: ScriptStop.Kind = arguments.count > 2 && string(from: arguments[2]) == "settlement" ? .microtask : .finalizer
        JSValueProtect(context, callback)
        if let heldValue { JSValueProtect(context, heldValue) }
        handedBack.append((callback, heldValue, kind))
    }

    /// Runs the functions handed back (at most ``handedBackBatchLimit``), each as its own entry: a stop
    /// is reported as `UnhandledError` of kind `.timeLimitExceeded` with a stop of kind
    /// `finalizer`, a throw as `.uncaughtException`; the next cleanup runs either way.
    func runHandedBack() {
        guard !handedBack.isEmpty, let context else { return }
        // Taken one at a time: a pass ends after ``handedBackBatchLimit`` calls or once it has
        // run as long as a timer batch may (a stopped callback alone uses the whole limit), so
        // queued Swift work (a dispatch, the owner's checks) runs in between.
        let started = ContinuousClock.now
        let budget = Duration.milliseconds(batchBudgetMilliseconds)
        var ran = 0
        while ran < Self.handedBackBatchLimit, !handedBack.isEmpty, ran == 0 || ContinuousClock.now - started < budget {
            let (callback, heldValue, kind) = handedBack.removeFirst()
            ran += 1
            // A stop that left the context unusable closed it: what is left was unprotected then.
            guard self.context != nil else { return }
            defer {
                unprotectIfLive(callback)
                unprotectIfLive(heldValue)
            }
            do {
                _ = try callRaw(callback, arguments: [heldValue ?? JSValueMakeUndefined(context)], kind: kind)
            } catch let error as EngineError where error.stop != nil {
                reportStopNobodyAwaited(error.stop, what: "a callback")
            } catch let error as JavaScriptError {
                reportUnhandled(UnhandledError(kind: .uncaughtException, error: error))
            } catch {
                reportUnhandled(UnhandledError(kind: .uncaughtException, error: JavaScriptError(message: String(describing: error))))
            }
        }
    }

    /// Unprotects what is still queued (the context is closing).
    func dropHandedBack() {
        guard let context else { return }
        for (callback, heldValue, _) in handedBack {
            JSValueUnprotect(context, callback)
            if let heldValue { JSValueUnprotect(context, heldValue) }
        }
        handedBack.removeAll()
    }
}

extension ScriptContext {
    /// Reports a stop of work no caller awaits (a handed-back callback, the stop recovery) as
    /// an unhandled `TimeLimitExceeded`, worded as every stop is; `what` names the work when
    /// the stop does not.
    func reportStopNobodyAwaited(_ stop: ScriptStop?, what: String) {
        reportUnhandled(UnhandledError(kind: .timeLimitExceeded, error: JavaScriptError(
            name: "TimeLimitExceeded", message: "stopped after \(stop?.seconds ?? "?") s: \(stop?.what ?? what) ran past the execution time limit",
            sourceURL: stop?.sourceURL, line: stop?.line), stop: stop))
    }
}
