import Foundation
import JSEngine
import Synchronization
import Trace

/// Makes a run end, whatever the page does: SIGINT / SIGTERM flush and close the trace
/// and exit; a memory watch stops a run that allocates without bound; a deadline ends a
/// run whose page does not come back after a stop. Every path closes the trace first, and
/// prints `run --json`'s object when there is one (``RunReport``).
final class RunGuard: Sendable {
    private let recorder: TraceRecorder?
    /// Positional arguments the trace's redactor wrote in clear before they became secrets.
    private let redactionReport: RedactionReport?
    private let report: RunReport?
    private let memoryWatch: Mutex<MemoryWatch?> = Mutex(nil)
    private let exiting = Mutex(false)
    /// `run`'s dispatch running now and those after it, for a run that ends in the middle.
    private let plan = Mutex<(current: String?, later: ArraySlice<String>)>((nil, []))

    init(recorder: TraceRecorder?, redactionReport: RedactionReport? = nil, memoryLimit: Int?, report: RunReport? = nil,
         context: @escaping @Sendable () -> String) {
        self.recorder = recorder
        self.redactionReport = redactionReport
        self.report = report
        do {
            try SignalWatch.install { [weak self] number in
                self?.exit(128 + number, kind: "signal", message: "statehub: \(SignalWatch.name(of: number)): stopped\(self?.recorder.map { "; trace written to \($0.filePath ?? "memory")" } ?? "")")
            }
        } catch {
            Output.error("statehub: warning: \(error); that signal ends the run without closing the trace")
        }
        if let memoryLimit {
            let watch = MemoryWatch(limitBytes: memoryLimit) { [weak self] resident in
                self?.exit(1, kind: "memoryLimit", message: "\(context()): stopped: the process used \(resident >> 20) MiB, over --memory-limit \(memoryLimit >> 20) MiB")
            }
            memoryWatch.withLock { $0 = watch }
        }
    }

    /// Ends the process after `delay` unless it has ended by then (a page stuck after a stop).
    func armDeadline(after delay: Duration, reason: String) {
        armDeadline(after: delay, kind: "notIdle") { "statehub: \(reason); exiting" }
    }

    /// Ends the process after `delay` with the message `message` gives at that moment.
    func armDeadline(after delay: Duration, kind: String, message: @escaping @Sendable () -> String) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        Thread.detachNewThread { [weak self] in
            Thread.sleep(forTimeInterval: seconds)
            self?.exit(1, kind: kind, message: message())
        }
    }

    /// Closes the trace; returns a problem to print if writing it failed.
    func closeTrace() -> String? {
        guard let recorder else { return nil }
        do { try recorder.close() } catch { return "statehub: trace: \(error)" }
        warnAboutArgumentsWrittenInClear()
        return nil
    }

    /// Names each positional argument the trace holds in clear although its value later
    /// became a secret, with the option that would have hidden it.
    private func warnAboutArgumentsWrittenInClear() {
        for spec in redactionReport?.argumentsWrittenInClear ?? [] {
            Output.error("statehub: warning: the trace holds argument \(spec) in clear (its value later became a secret); --redact-argument \(spec) hides it")
        }
    }

    /// Prints `message`, closes the trace, prints the `--json` object (with `message` as its
    /// `error`, of kind `kind`) and exits with `code`, once.
    func exit(_ code: Int32, kind: String, message: String) -> Never {
        let first = exiting.withLock { e in
            defer { e = true }
            return !e
        }
        guard first else { while true { Thread.sleep(forTimeInterval: 1) } }
        Output.error(message)
        report?.fail(kind: kind, printed: message)
        abandonDispatches(kind: kind, message: message)
        if let problem = closeTrace() { Output.error(problem) }
        report?.print(ok: code == 0)
        Foundation.exit(code)
    }

    /// Records that `run` is about to dispatch `current` (`STORE.ACTION(ARGS)`; nil while
    /// the files load), with `later` still to come, so a run ended in the middle can say
    /// what it left undone.
    func dispatching(_ current: String?, later: ArraySlice<String>) {
        plan.withLock { $0 = (current, later) }
    }

    /// Records the end of the current dispatch; false when the run is already ending (the
    /// exit has listed it and will print the object: `run` must not add it again).
    func finishedDispatch() -> Bool {
        plan.withLock { plan in
            guard plan.current != nil else { return false }
            plan.current = nil
            return true
        }
    }

    /// The page cannot go on (a turn the limit cannot stop, the wall-clock or memory limit, a
    /// signal, an unhandled error): the dispatch that was running failed with `message`, and
    /// each one after it is printed and listed as skipped, never silently dropped.
    private func abandonDispatches(kind: String, message: String) {
        let (current, later) = plan.withLock { plan in
            defer { plan = (nil, []) }
            return plan
        }
        let reason = message.split(separator: "\n").first.map(String.init) ?? message
        if let current {
            Output.error("✗ \(current) did not finish: the run ended (\(kind))")
            report?.addDispatch(["dispatch": .string(Self.name(of: current)), "ok": false, "kind": .string(kind), "error": .string(SourceMaps.shared.rewrite(reason))])
        }
        for dispatch in later {
            Output.error("⤼ \(dispatch) skipped: the run ended before it (\(kind))")
            report?.addDispatch(["dispatch": .string(Self.name(of: dispatch)), "ok": false, "skipped": true, "kind": .string(kind),
                                 "reason": .string("the run ended before it: " + SourceMaps.shared.rewrite(reason))])
        }
    }

    /// `STORE.ACTION` of `STORE.ACTION(ARGS)`, as `run --json`'s `dispatch` names it.
    private static func name(of call: String) -> String {
        String(call.prefix(while: { $0 != "(" }))
    }

    /// The normal end: closes the trace, prints the `--json` object, exits 1 if `failed` or
    /// the trace could not be written, else 0.
    func finish(failed: Bool, stores: [(String, JSONValue)]? = nil) -> Never {
        let first = exiting.withLock { e in
            defer { e = true }
            return !e
        }
        guard first else { while true { Thread.sleep(forTimeInterval: 1) } }
        var failed = failed
        if let problem = closeTrace() {
            Output.error(problem)
            report?.fail(kind: "trace", printed: problem)
            failed = true
        }
        report?.print(ok: !failed, stores: stores)
        Foundation.exit(failed ? 1 : 0)
    }
}
