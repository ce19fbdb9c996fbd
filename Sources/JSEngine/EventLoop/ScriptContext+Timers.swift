#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// `setTimeout`, `setInterval` and their `clear` functions, driven by either clock.
///
/// Under the real clock the engine thread's loop fires due timers and sleeps until the next
/// one. Under the manual clock nothing fires until the owner advances virtual time
/// (`advanceClock(by:)`) or runs until idle (`runUntilIdle`).
extension ScriptContext {
    /// Now, in nanoseconds since the engine started (virtual under the manual clock).
    var now: UInt64 {
        switch configuration.clock {
        case .manual: return manualNow
        case .real:
            let elapsed = ContinuousClock.now - startTime
            return UInt64(elapsed.components.seconds) * 1_000_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000)
        }
    }

    func installTimers() throws {
        try bind("setTimeout", on: "") { owner, _, arguments in try owner.schedule(arguments, repeating: false) }
        try bind("setInterval", on: "") { owner, _, arguments in try owner.schedule(arguments, repeating: true) }
        try bind("clearTimeout", on: "") { owner, _, arguments in owner.cancelTimer(arguments); return nil }
        try bind("clearInterval", on: "") { owner, _, arguments in owner.cancelTimer(arguments); return nil }
    }

    private func schedule(_ arguments: UnsafeBufferPointer<JSValueRef?>, repeating: Bool) throws -> JSValueRef? {
        let context = try live()
        guard let first = arguments.first, let callbackValue = first, JSValueIsObject(context, callbackValue),
              let callback = JSValueToObject(context, callbackValue, nil), JSObjectIsFunction(context, callback)
        else {
            throw JavaScriptError(name: "TypeError", message: repeating ? "setInterval needs a function" : "setTimeout needs a function")
        }
        var delayMilliseconds = arguments.count > 1 ? JSValueToNumber(context, arguments[1], nil) : 0
        if !delayMilliseconds.isFinite || delayMilliseconds < 0 { delayMilliseconds = 0 }
        delayMilliseconds = min(delayMilliseconds, 2_147_483_647) // the web's cap on timer delays
        let delay = UInt64(delayMilliseconds * 1_000_000)
        let extra = arguments.count > 2 ? Array(arguments[2...]) : []
        JSValueProtect(context, callback)
        for argument in extra { if let argument { JSValueProtect(context, argument) } }
        let id = nextTimerID
        nextTimerID += 1
        timerSequence += 1
        insert(ScheduledTimer(id: id, due: now + delay, sequence: timerSequence,
                              interval: repeating ? max(delay, 1_000_000) : nil,
                              callback: callback, arguments: extra))
        return JSValueMakeNumber(context, Double(id))
    }

    private func insert(_ timer: ScheduledTimer) {
        timers.insert(timer)
        activity.setTimerCount(timers.count)
    }

    /// `clearTimeout` / `clearInterval`: O(1) (see `TimerQueue`).
    private func cancelTimer(_ arguments: UnsafeBufferPointer<JSValueRef?>) {
        guard let context, let first = arguments.first, JSValueIsNumber(context, first) else { return }
        let number = JSValueToNumber(context, first, nil)
        guard number.isFinite, number.rounded() == number, abs(number) < 9e15 else { return }
        // In the running batch: skipped there; an interval's next occurrence is queued too.
        _ = cancelInRunningBatch(id: Int(number))
        timers.cancel(id: Int(number))?.unprotect(in: context)
        activity.setTimerCount(timers.count)
    }

    /// Fires every real-clock timer that is due now. Called by the engine thread's loop.
    func fireDueTimers() {
        guard case .real = configuration.clock else { return }
        // One batch (at most `timerBatchLimit`) per wake-up, so a zero-delay timer chain
        // cannot starve queued Swift work.
        fireTimerBatch(dueBy: now)
    }

    /// Milliseconds until the next real-clock timer is due, `nil` when none is pending.
    func millisecondsUntilNextTimer() -> UInt32? {
        guard case .real = configuration.clock, let first = timers.first() else { return nil }
        let current = now
        guard first.due > current else { return 0 }
        return UInt32(min((first.due - current + 999_999) / 1_000_000, UInt64(UInt32.max)))
    }

    /// Advances the manual clock by `duration`, firing every timer due on the way, in order.
    func advanceClock(by duration: Duration) throws {
        guard case .manual = configuration.clock else { throw EngineError.wrongClock("advanceClock needs the manual clock") }
        _ = try live()
        let target = manualNow + duration.nanoseconds
        while fireTimerBatch(dueBy: target) > 0 {}
        manualNow = max(manualNow, target)
    }

    /// Fires timers in order, jumping the manual clock to each, until none is left.
    ///
    /// - Throws: `EngineError.notIdle` after `limit` firings (an interval never ends).
    func runUntilIdle(limit: Int) throws {
        guard case .manual = configuration.clock else { throw EngineError.wrongClock("runUntilIdle needs the manual clock; use waitUntilIdle with the real one") }
        _ = try live()
        var fired = 0
        while true {
            let batch = fireTimerBatch(dueBy: .max)
            if batch == 0 { break }
            fired += batch
            if fired >= limit { throw EngineError.notIdle(firedTimers: fired) }
        }
    }
}

extension Duration {
    /// Seconds as a `Double` (what JavaScriptCore's time limit takes).
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// Whole nanoseconds, clamped at zero.
    var nanoseconds: UInt64 {
        let parts = components
        guard parts.seconds >= 0 else { return 0 }
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
    }
}
