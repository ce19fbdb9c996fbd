import Foundation

/// Stops the process before a script that allocates without bound exhausts the machine.
///
/// JavaScriptCore offers no hard heap limit through its API: `JSC_gcMaxHeapSize` only tunes
/// when the collector runs, and an address-space limit (`RLIMIT_AS`) breaks JSC, which
/// reserves tens of GiB of virtual memory up front (the Gigacage). So a thread reads the
/// process's resident size (`/proc/self/statm`) every 50 ms and, past the limit, runs
/// `onExceeded` (the CLI prints the stop, closes the trace and exits 1). Cost: one 40-byte
/// file read per 50 ms, about 10 µs of CPU each (0.02 % of a core); a run can overshoot
/// the limit by what it allocates in 50 ms.
final class MemoryWatch: Sendable {
    static let defaultLimitMiB = 4096
    init(limitBytes: Int, onExceeded: @escaping @Sendable (_ residentBytes: Int) -> Void) {
        let thread = Thread {
            while true {
                if let resident = MemoryWatch.residentBytes(), resident > limitBytes {
                    onExceeded(resident)
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        thread.name = "statehub.memory-watch"
        thread.start()
    }

    /// Resident set size of this process, from `/proc/self/statm` (Linux).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
