import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process and suspends until it exits, holding no thread meanwhile.
    ///
    /// `waitUntilExit()` blocks its caller's thread; called from a test it blocks one of the
    /// cooperative pool's threads, of which a 2-core machine has two, and every other test's
    /// tasks wait behind it. After ``childProcessDeadline`` without the exit it kills the child
    /// and throws ``ChildProcessHang``, which names the command and what `/proc` says of it.
    package func runUntilExit() async throws {
        let (exits, exit) = AsyncStream<Void>.makeStream()
        terminationHandler = { _ in
            exit.yield()
            exit.finish()
        }
        do {
            try run()
        } catch {
            terminationHandler = nil
            throw error
        }
        let outcome = await race(deadline: childProcessDeadline) { () async -> WaitOutcome<Void> in
            for await _ in exits { return .found(()) }
            return .ended
        }
        switch outcome {
        case .found: return
        case .cancelled:
            if isRunning { _ = kill(processIdentifier, SIGKILL) }
            throw CancellationError()
        case .ended, .failed, .timedOut:
            throw hang(waitingFor: "to exit")
        }
    }

    /// What a test reports of a child it waited for in vain, read before the child is killed.
    package func hang(waitingFor what: String) -> ChildProcessHang {
        let hang = ChildProcessHang(command: commandLine, pid: processIdentifier, waitedFor: what,
                                    state: ChildProcessHang.state(of: processIdentifier))
        if isRunning { _ = kill(processIdentifier, SIGKILL) }
        return hang
    }

    /// The command as a shell would show it, cut to a line.
    var commandLine: String {
        let words = [executableURL?.lastPathComponent ?? "?"] + (arguments ?? [])
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}

/// A child process whose exit, or the end of whose output, a test waited for longer than
/// ``childProcessDeadline``: a hang guard's report, never an expected outcome.
package struct ChildProcessHang: Error, CustomStringConvertible {
    package var command: String
    package var pid: Int32
    package var waitedFor: String
    /// What `/proc` said of the child when the wait gave up.
    package var state: String

    package var description: String {
        "waited \(childProcessDeadline) for `\(command)` (pid \(pid)) \(waitedFor); /proc: \(state)"
    }

    /// The state letter of `/proc/PID/stat` in words: a zombie is a child that exited and that
    /// nothing reaped; no entry at all is one that was reaped without the test being told.
    static func state(of pid: Int32) -> String {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else {
            return "no such process (it exited and was reaped, yet its exit never reached the test)"
        }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        switch fields.first {
        case "Z": return "zombie (it exited; nothing has reaped it)"
        case "R": return "running"
        case "S", "D": return "alive, waiting (state \(fields.first ?? "?"))"
        case "T", "t": return "stopped"
        default: return "state \(fields.first ?? "?")"
        }
    }
}
