import Foundation

/// The check that `ulimit -v` leaves JavaScriptCore the address space it reserves.
///
/// JavaScriptCore reserves address space when an engine starts (its heaps and, with the JIT,
/// executable memory) and aborts with SIGABRT and no message when the process's
/// `RLIMIT_AS` refuses it. Measured on Debian 12 with WebKitGTK's JavaScriptCore 2.50.6: a
/// debug `statehub eval` of one line aborts at 5,900 MiB and starts at 6,000 MiB; with
/// `JSC_useJIT=0`, at 4,500 and 5,000 MiB. `run` and `eval` check the limit before they build
/// a page and refuse, naming it, below the need plus a margin.
enum AddressSpaceLimit {
    /// What an engine start needs, rounded up: 6 GiB with the JIT, 5 GiB without.
    static func needed(jit: Bool) -> UInt64 { (jit ? 6 : 5) << 30 }

    /// Whether `JSC_useJIT` turns the JIT off (JavaScriptCore reads it at its first start).
    static var jitEnabled: Bool {
        guard let value = ProcessInfo.processInfo.environment["JSC_useJIT"]?.lowercased() else { return true }
        return !["0", "false", "no"].contains(value)
    }

    /// The process's soft `RLIMIT_AS` in bytes, `nil` when unlimited (`RLIM_INFINITY`, all ones) or unreadable.
    static var current: UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// The message that refuses to start an engine under `limit`, or `nil` when it may start.
    static func problem(limit: UInt64? = current, jit: Bool = jitEnabled) -> String? {
        guard let limit, limit < needed(jit: jit) else { return nil }
        return "statehub: the address-space limit (ulimit -v) is \(gibibytes(limit)); JavaScriptCore reserves about "
            + "\(gibibytes(needed(jit: jit))) of address space when an engine starts\(jit ? "" : " without the JIT") and aborts below it. "
            + "Raise it (ulimit -v unlimited, or at least \(needed(jit: jit) >> 10) KiB)\(jit ? ", or set JSC_useJIT=0 (5 GiB)" : ""); "
            + "--memory-limit caps what a run may really use."
    }

    static func gibibytes(_ bytes: UInt64) -> String {
        String(format: "%.1f GiB", Double(bytes) / Double(1 << 30))
    }
}
