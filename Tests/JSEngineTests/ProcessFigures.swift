import Foundation
@testable import JSEngine
import StateHubTestSupport
import Testing

/// Process-wide figures read from /proc, for the leak and thread checks.
enum ProcessFigures {
    /// Resident set size in bytes (`/proc/self/statm`, second field, in pages).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Threads of this process (`/proc/self/task`).
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// Waits until every one of `threads` has exited, woken by each exit (`waitUntil`); returns
    /// whether they did. Past `eventWaitDeadline` it records an issue and returns false.
    static func waitForExit(of threads: [EngineThread]) async -> Bool {
        let (exits, exited) = AsyncStream<Void>.makeStream()
        for thread in threads {
            Task {
                await thread.waitForExit()
                exited.yield()
            }
        }
        return await waitUntil("\(threads.count) engine threads to exit", notifiedBy: exits,
                               observed: { "\(threads.count(where: \.hasExited)) exited" }) {
            threads.allSatisfy(\.hasExited)
        }
    }
}
