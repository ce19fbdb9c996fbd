import Foundation

/// The check that `ulimit -v` leaves JavaScriptCore the address space it reserves.
///
/// JavaScriptCore reserves address space when an engine starts (its heaps and, with the JIT,
/// executable memory) and aborts with SIGABRT and no message when the process's
/// `RLIMIT_AS` refuses it. Measured on Debian 12 with WebKitGTK's JavaScriptCore 2.50.6, a
/// debug build: one line of classic `eval` starts at 6,000 MiB (5,000 without the JIT); an ES
/// module needs more (esbuild's process and the bundle's buffers): `run m1.mjs --dispatch
/// --trace --json` aborts at 6,300,000 KiB and starts at 6,350,000 (5,300,000 aborts and
/// 5,400,000 starts without the JIT). `run` and `eval` check the limit once arguments and files
/// are read and refuse, naming it, below the need plus about 0.9 GiB of margin.
enum AddressSpaceLimit {
    /// What a run needs with margin, modules included: 7 GiB with the JIT, 6 GiB without.
    static func needed(jit: Bool) -> UInt64 { (jit ? 7 : 6) << 30 }

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
        // In KiB, the unit `ulimit -v` takes: a limit just under the need never prints as the need.
        return "statehub: the address-space limit (ulimit -v) is \(limit >> 10) KiB; a run needs at least "
            + "\(needed(jit: jit) >> 10) KiB (\(needed(jit: jit) >> 30) GiB)\(jit ? "" : " without the JIT"): JavaScriptCore reserves "
            + "address space when an engine starts and aborts when it is refused. "
            + "Raise it (ulimit -v unlimited, or at least \(needed(jit: jit) >> 10))\(jit ? ", or set JSC_useJIT=0 (\(needed(jit: false) >> 10) KiB)" : ""); "
            + "--memory-limit caps what a run may really use."
    }
}
