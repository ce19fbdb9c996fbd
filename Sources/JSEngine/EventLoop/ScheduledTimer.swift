#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// A `setTimeout` or `setInterval` waiting to fire.
///
/// Timers fire by due time, then by `sequence` (insertion order): two timers due at the same
/// instant fire in the order they were scheduled, under either clock.
struct ScheduledTimer {
    let id: Int
    var due: UInt64
    var sequence: UInt64
    /// Repeat period in nanoseconds for `setInterval`; `nil` for `setTimeout`.
    let interval: UInt64?
    /// The callback and its extra arguments, protected from collection while scheduled.
    let callback: JSObjectRef
    let arguments: [JSValueRef?]

    func unprotect(in context: JSGlobalContextRef) {
        JSValueUnprotect(context, callback)
        for argument in arguments { if let argument { JSValueUnprotect(context, argument) } }
    }

    func precedes(_ other: ScheduledTimer) -> Bool {
        due != other.due ? due < other.due : sequence < other.sequence
    }
}
