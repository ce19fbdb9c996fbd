import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands SIGINT and SIGTERM to a closure on a thread of its own, from the moment
/// ``install(_:)`` returns.
///
/// Why not `DispatchSource.makeSignalSource`: on Linux, libdispatch installs its signal
/// handler only once a worker of the global queue has run the source's registration, and
/// runs the event handler on that pool too. Until then the signal had to be ignored (or it
/// would kill the run without closing the trace), and on a loaded 2-core CI machine a run
/// ignored every SIGINT sent over 40 s and went on to its own deadline.
///
/// Here the handler is in place before `install` returns. It only writes the signal's number
/// to a pipe, which is async-signal-safe; a dedicated thread reads the pipe and calls the
/// closure. That thread unblocks both signals for itself (it may be started from a libdispatch
/// worker, which blocks every signal), so the kernel always has a thread to deliver them to.
///
/// The first signal puts both back to their default action before the closure runs: a second
/// Ctrl-C while the trace is being closed ends the process at once, and one that comes when no
/// closure is left (its owner gone) ends it the default way rather than being swallowed.
enum SignalWatch {
    /// The signals watched, with the names the CLI prints.
    static let watched: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")]

    private static let state = Mutex<State>(State())

    private struct State {
        var handler: (@Sendable (Int32) -> Void)?
        var installed = false
    }

    /// Calls `handler` with the signal's number for each SIGINT or SIGTERM from now on, on the
    /// watch's thread; a later call replaces the handler. Throws when the pipe or the handler
    /// cannot be set up (the signals then keep their previous behaviour).
    static func install(_ handler: @escaping @Sendable (Int32) -> Void) throws {
        try state.withLock { state in
            state.handler = handler
            guard !state.installed else { return }
            var ends: [Int32] = [-1, -1]
            // Close-on-exec (Swift's Glibc module has no `pipe2`: a child spawned by another
            // thread in between would inherit the ends, which only costs it two descriptors).
            guard pipe(&ends) == 0 else { throw SignalWatchError.setUp("pipe", errno: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // A signal storm fills the pipe: later writes fail rather than block the handler.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
            startReader(readEnd: ends[0])
            // Installed from here on, even if the second `sigaction` fails: the reader serves
            // whichever signal got the handler, and a later call does not make a second pipe.
            state.installed = true
            for (number, _) in watched {
                var action = sigaction()
                #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = forwardSignalToPipe
                #elseif canImport(Musl)
                action.__sa_handler.sa_handler = forwardSignalToPipe
                #else
                action.__sigaction_u.__sa_handler = forwardSignalToPipe
                #endif
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                guard sigaction(number, &action, nil) == 0 else { throw SignalWatchError.setUp("sigaction for \(name(of: number))", errno: errno) }
            }
        }
    }

    /// The name the CLI prints for `number`.
    static func name(of number: Int32) -> String {
        watched.first { $0.number == number }?.name ?? "signal \(number)"
    }

    private static func startReader(readEnd: Int32) {
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            for (number, _) in watched { sigaddset(&set, number) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    for (number, _) in watched { signal(number, SIG_DFL) }
                    let handler = state.withLock { $0.handler }
                    handler?(Int32(byte))
                    // No handler, or one that returned: the default action.
                    raise(Int32(byte))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        thread.name = "statehub.signal-watch"
        thread.start()
    }
}

/// Why ``SignalWatch/install(_:)`` failed: the call that failed and its `errno`.
enum SignalWatchError: Error, CustomStringConvertible {
    case setUp(String, errno: Int32)

    var description: String {
        switch self {
        case let .setUp(call, code): "cannot watch SIGINT and SIGTERM: \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// Written once, before the handler that reads it is installed. A `let` holding an atomic:
/// the handler's read takes no exclusivity check and no lock (async-signal-safe).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The signal handler: writes the signal's number to the pipe and nothing else (only
/// async-signal-safe calls), keeping the interrupted code's `errno`.
private func forwardSignalToPipe(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
    errno = saved
}
