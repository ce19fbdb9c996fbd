import Synchronization

/// How native functions and held functions reach their script context on every call.
///
/// A `weak` reference cost each JS→native call an atomic load, a retain through the context's
/// side table and its release: a quarter of the call's own time in `perf` profiles
/// (docs/benchmarks.md, "Where a call's time goes"). The link is made once per context and held
/// strongly by every `NativeFunction` box and `JSFunction` handle; it refers to the context
/// without a reference count and says whether the context is still open.
///
/// Invariant: `withContext` hands out the context only between `attach` and `detach`, and
/// `ScriptContext.close()` (which its `deinit` runs) detaches before the context goes away. Read
/// on the engine thread only; the flag is atomic because a context may be released elsewhere.
final class ContextLink: Sendable {
    private let alive = Atomic<Bool>(false)
    nonisolated(unsafe) private var context: Unmanaged<ScriptContext>?

    init() {}

    func attach(_ context: ScriptContext) {
        self.context = Unmanaged.passUnretained(context)
        alive.store(true, ordering: .releasing)
    }

    func detach() { alive.store(false, ordering: .releasing) }

    /// Runs `body` with the context while it is open; `nil` once it closed.
    @inline(__always)
    func withContext<T>(_ body: (ScriptContext) throws -> T) rethrows -> T? {
        guard alive.load(ordering: .acquiring), let context else { return nil }
        return try context._withUnsafeGuaranteedRef(body)
    }
}
