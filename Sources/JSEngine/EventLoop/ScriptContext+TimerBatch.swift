#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// Firing due timers many at a time: one call into JavaScript per batch instead of one per
/// timer (100,000 zero-work timers cost 100,000 entries, each with its turn bookkeeping and
/// microtask checkpoint, before this).
///
/// A small script (`firer`) calls the batch's callbacks in order, each in its own
/// `try`/`catch`, so every timer's exception is reported on its own, as before. Kept:
/// - *order*: the batch is taken from the queue in firing order (due time, then scheduling);
/// - *cancellation*: `clearTimeout` of a timer already taken into the running batch marks
///   it (one property write), and the firer skips it;
/// - *errors per timer*: the firer returns `[index, error, …]`, each reported as an
///   `UnhandledError` of kind `.uncaughtException`;
/// - *the time limit per timer, nearly*: the firer stops taking timers once the batch has run
///   `batchBudgetMilliseconds` (checked every 32 timers, with `Date.now()`, nothing native),
///   and the rest go back to the queue; a callback the limit stops is reported as a timer
///   stop, and the timers after it go back too.
/// One difference from one entry per timer: microtasks a callback queues run after the
/// batch's remaining callbacks, not before the next one (a batch is one task).
extension ScriptContext {
    /// Timers taken into one call at most (a zero-delay chain still leaves room for Swift work).
    static let timerBatchLimit = 1_000
    /// How long one batch may run before it hands the rest back to the queue.
    var batchBudgetMilliseconds: Double {
        let quarterLimit = configuration.executionTimeLimit.map { $0.inSeconds * 250 } ?? 20
        return min(20, quarterLimit)
    }

    private static let firerSource = """
        (function (callbacks, args, cancelled, state) {
          var errors = [], n = callbacks.length, start = Date.now(), budget = state.budget;
          for (var i = 0; i < n; i++) {
            if ((i & 31) === 31 && Date.now() - start > budget) break;
            if (cancelled[i] === true) continue;
            state.current = i;
            try { callbacks[i].apply(undefined, args[i]); } catch (e) { errors.push(i, e); }
          }
          state.current = -1;
          state.next = i;
          return errors;
        })
        """

    private func timerFirer() throws -> (function: JSObjectRef, state: JSObjectRef) {
        if let timerFirerFunction, let timerFirerState { return (timerFirerFunction, timerFirerState) }
        let context = try live()
        guard let source = Self.firerSource.jsStringRetained(), let url = "statehub:timers.js".jsStringRetained() else { throw EngineError.closed }
        defer { JSStringRelease(source); JSStringRelease(url) }
        var exception: JSValueRef?
        let value = JSEvaluateScript(context, source, nil, url, 1, &exception)
        guard exception == nil, let value, let function = JSValueToObject(context, value, nil), let state = JSObjectMake(context, nil, nil) else {
            throw EngineError.closed
        }
        JSValueProtect(context, function)
        // No prototype: the engine reads `next` and `current` from it after the turn, and an
        // accessor the page put on `Object.prototype` would run there.
        JSObjectSetPrototype(context, state, JSValueMakeNull(context))
        JSValueProtect(context, state)
        timerFirerFunction = function
        timerFirerState = state
        return (function, state)
    }

    /// Fires, in one call, the timers due by `deadline` — under the manual clock only those due
    /// at the earliest due instant, so virtual time is exact for each. Returns how many were
    /// taken from the queue (0: none due).
    @discardableResult
    func fireTimerBatch(dueBy deadline: UInt64) -> Int {
        guard let context, let head = timers.first(), head.due <= deadline, let (firer, state) = try? timerFirer() else { return 0 }
        let manual: Bool = if case .manual = configuration.clock { true } else { false }
        if manual { manualNow = max(manualNow, head.due) }
        var batch: [ScheduledTimer] = []
        while batch.count < Self.timerBatchLimit, let next = timers.first(), next.due <= deadline, !manual || next.due == head.due,
              let timer = timers.removeFirst() {
            if let interval = timer.interval {
                // Rescheduled before its callback runs, so it can clear itself.
                var again = timer
                timerSequence += 1
                again.sequence = timerSequence
                again.due = max(timer.due, now) + interval
                timers.insert(again)
            }
            batch.append(timer)
        }
        activity.setTimerCount(timers.count)
        let undefined = JSValueMakeUndefined(context)
        // The callbacks are protected while scheduled: safe in a Swift array.
        let callbacks: [JSValueRef?] = batch.map { $0.callback }
        // A timer's argument array is held only in this Swift array until the firer's call, on
        // Swift's heap, which the collector does not scan: protected as it is made (docs/engine.md,
        // "Values made before a call"). Only timers with arguments pay for it.
        let arguments: [JSValueRef?] = batch.map { timer in
            guard !timer.arguments.isEmpty else { return undefined }
            let array = timer.arguments.withUnsafeBufferPointer { JSObjectMakeArray(context, $0.count, $0.baseAddress, nil) }
            if let array { JSValueProtect(context, array) }
            return array
        }
        defer {
            // A stop that left the context unusable closed it, and its protections with it.
            if let live = self.context {
                for (timer, array) in zip(batch, arguments) where !timer.arguments.isEmpty {
                    if let array { JSValueUnprotect(live, array) }
                }
            }
        }
        try? setProperty("budget", of: state, to: JSValueMakeNumber(context, batchBudgetMilliseconds))

        var resumeAt = batch.count
        do {
            // The firer's arguments are made straight into a stack buffer, which the collector
            // scans: safe from the moment they are made, with no protection per batch (an array
            // literal here would hold them on Swift's heap only).
            let errors = try withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: 4) { slots in
                slots.initializeElement(at: 0, to: callbacks.withUnsafeBufferPointer { JSObjectMakeArray(context, $0.count, $0.baseAddress, nil) })
                slots.initializeElement(at: 1, to: arguments.withUnsafeBufferPointer { JSObjectMakeArray(context, $0.count, $0.baseAddress, nil) })
                slots.initializeElement(at: 2, to: JSObjectMakeArray(context, 0, nil, nil))
                slots.initializeElement(at: 3, to: state)
                // Reachable from the firer's call frame while it runs; cleared as it returns:
                // the reading below is a turn of its own, whose stop recovery may call `clearTimeout`.
                firingBatch = Dictionary(uniqueKeysWithValues: batch.enumerated().map { ($1.id, $0) })
                firingCancelled = slots[2]
                defer { firingBatch = [:]; firingCancelled = nil }
                return try callRaw(firer, this: nil, argumentBuffer: UnsafeBufferPointer(slots), kind: .timer)
            }
            resumeAt = index(named: "next", of: state) ?? batch.count
            // What the callbacks threw is read in a turn of its own: reading a thrown value runs
            // the page's code (`instanceof`, getters, `toString`), and outside an entry a stop
            // there was settled by no one (``insideEntry(keepingAlive:_:)``). `self.context`
            // each time, never one held before: a stop may have closed it (`unprotectIfLive(_:)`).
            // A stop there is reported as any turn's; it is not this batch's failure.
            if let errors, self.context != nil {
                try? insideEntry(keepingAlive: errors) {
                    guard let live = self.context, let list = JSValueToObject(live, errors, nil) else { return }
                    let count = index(named: "length", of: list) ?? 0
                    var pair = 0
                    while pair + 1 < count, let live = self.context {
                        let thrown = JSObjectGetPropertyAtIndex(live, list, UInt32(pair + 1), nil)
                        reportUnhandled(UnhandledError(kind: .uncaughtException, error: javaScriptError(from: thrown)))
                        pair += 2
                    }
                }
            }
        } catch let error as EngineError where error.stop != nil {
            // The callback that ran away is reported; the ones after it wait for the next batch.
            let stopped = index(named: "current", of: state) ?? batch.count - 1
            resumeAt = stopped + 1
            let stop = error.stop
            reportUnhandled(UnhandledError(kind: .timeLimitExceeded, error: JavaScriptError(
                name: "TimeLimitExceeded", message: "stopped after \(stop?.seconds ?? "?") s: a timer callback ran past the execution time limit",
                sourceURL: stop?.sourceURL, line: stop?.line), stop: stop))
        } catch {
            reportUnhandled(UnhandledError(kind: .uncaughtException, error: JavaScriptError(message: String(describing: error))))
        }
        // A stop that left the context unusable closed it (ScriptContext+TimeLimit.swift).
        guard let live = self.context else { return batch.count }
        let skipped = firingSkipped
        firingSkipped = []
        for (position, timer) in batch.enumerated() {
            if position >= resumeAt, timer.interval == nil, !skipped.contains(position) {
                timers.insert(timer)   // not reached: back in the queue, in its old place
            } else if timer.interval == nil {
                timer.unprotect(in: live)
            }
        }
        activity.setTimerCount(timers.count)
        return resumeAt
    }

    /// `clearTimeout` of a timer the running batch holds: marks it so the firer skips it.
    /// Returns whether it was one.
    func cancelInRunningBatch(id: Int) -> Bool {
        guard let position = firingBatch[id], let context, let firingCancelled else { return false }
        JSObjectSetPropertyAtIndex(context, firingCancelled, UInt32(position), JSValueMakeBoolean(context, true), nil)
        firingSkipped.insert(position)
        return true
    }

    /// A whole-number property of `object`, if it has one.
    private func index(named name: String, of object: JSObjectRef) -> Int? {
        guard let context, let value = try? property(name, of: object), JSValueIsNumber(context, value) else { return nil }
        let number = JSValueToNumber(context, value, nil)
        return number.isFinite && number >= 0 ? Int(number) : nil
    }
}
