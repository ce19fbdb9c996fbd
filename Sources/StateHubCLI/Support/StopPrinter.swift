import JSEngine
import StateHub

/// `run`'s stops of work an action left behind (a microtask loop it queued, stopped after it
/// returned): the hub records them as problems, and nothing else prints them. A stop that
/// failed its dispatch was printed with that dispatch and is not printed twice.
struct StopPrinter {
    /// How many action stops of the hub's problems were handled.
    private var seen = 0
    /// `STORE.ACTION` of dispatches that failed with a stop, not yet matched to a problem.
    private var printedByDispatch: [String: Int] = [:]

    mutating func printedByDispatch(_ name: String) {
        printedByDispatch[name, default: 0] += 1
    }

    /// Prints each new action stop (`FILE:LINE: stopped after N s …`) and records it as the
    /// `--json` failure of kind `stopped`; returns whether there was one.
    mutating func printNew(_ problems: [HubProblem], report: RunReport?) -> Bool {
        let stops: [(name: String, reason: String, stop: ScriptStop?)] = problems.compactMap { problem in
            guard case .stopped(let action, let reason) = problem.kind else { return nil }
            return ("\(problem.storeId ?? "?").\(action)", reason, problem.stop)
        }
        guard stops.count > seen else { return false }
        var printed = false
        for stop in stops[seen...] {
            if let count = printedByDispatch[stop.name], count > 0 {
                printedByDispatch[stop.name] = count - 1
                continue
            }
            let text = "\(stop.reason); \(stop.name) had returned, the work it queued was stopped (--time-limit changes the limit). The page is still usable."
            Output.error(text)
            report?.fail(RunReport.Failure(kind: "stopped", printed: SourceMaps.shared.rewrite(text), stop: stop.stop))
            printed = true
        }
        seen = stops.count
        return printed
    }
}
