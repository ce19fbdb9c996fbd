import ArgumentParser
import CapabilityBridge
import Foundation
import Synchronization
import JSEngine
import StateHub
import StateHubPage
import Trace

/// What `run` and `eval` both do: build the page with ``HostedPage`` from the shared
/// options, evaluate the files in order, fail on the first error, stop or unhandled
/// rejection, and wait for timers. Every failure is printed and becomes exit 1 (exit 2
/// for arguments and files, before anything runs).
struct PageSession {
    let page: HostedPage
    let guardian: RunGuard
    let timeLimit: Duration
    let idleLimit: Duration
    let recorder: TraceRecorder?
    let shell: HeadlessShell
    /// The shell's state before any file ran: `run` prints the shell only when the page changed it.
    let initialShellState: HeadlessShellState
    /// What the run is doing (a file, a dispatch), for messages printed from other threads.
    let current: CurrentStep
    /// `run --json`'s object, printed on every way the process exits.
    let report: RunReport?
    /// The file that defined each store, read once the files have loaded: the place a stop
    /// names when it cannot read the stack (an `await` loop a dispatched action started).
    var storeFiles: [String: String] = [:]
    /// Whether a timer or microtask was stopped while the files loaded (`run`, whose page
    /// goes on after such a stop: printed there, and the run fails at its end).
    var stoppedWhileLoading = false

    /// Validates the options, reads the files, builds the page and runs the files.
    static func start(options: PageOptions, files: [String], name: String, extraRedaction: TraceRedaction = TraceRedaction(),
                      report: RunReport? = nil, dispatches: [String] = [],
                      scriptURLs: [String: String] = [:], stopsEndTheRun: Bool = true) async throws -> PageSession {
        let timeLimit: Duration
        let wallLimit: Duration
        let memoryLimit: Int?
        let flush: StoreScripts.Flush
        let initialData: JSONValue
        let scripts: [ScriptFile]
        var redaction = extraRedaction
        do {
            timeLimit = try options.timeLimitDuration()
            wallLimit = try options.wallLimitDuration()
            memoryLimit = try options.memoryLimitBytes()
            guard let mode = StoreScripts.Flush(rawValue: options.flush) else {
                throw CLIError.badArgument("--flush must be tick or sync, not \(options.flush)")
            }
            flush = mode
            initialData = try options.initialDataValue()
            guard options.alertAnswer >= 0 else { throw CLIError.badArgument("--alert-answer must be 0 or more, not \(options.alertAnswer)") }
            do { try redaction.add(keys: options.redactKey, arguments: options.redactArgument) } catch {
                throw CLIError.badArgument("--redact-argument: \(error)")
            }
            scripts = try ScriptFile.readAll(files)
        } catch let error as CLIError { throw error.exit() }
        // Once arguments and files are known good (they exit 2 first), before esbuild or an
        // engine starts: under a low `ulimit -v` JavaScriptCore aborts with no message.
        if let problem = AddressSpaceLimit.problem() {
            Output.error(problem)
            report?.fail(kind: "setup", printed: problem)
            throw ExitCode(1)
        }
        var loaded: [ScriptFile] = []
        for script in scripts {
            guard ModuleBundler.needsBundling(script) else { loaded.append(script); continue }
            do {
                // Under a name of its own: the engine maps what it reports to the module's lines,
                // and the CLI's text rewriting maps only what still names the bundle.
                let sourceURL = script.path + "#bundle"
                let bundled = try ModuleBundler.bundle(path: script.path, sourceURL: sourceURL)
                loaded.append(ScriptFile(path: script.path, source: bundled.code, sourceURL: sourceURL, lineMap: bundled.lineMap))
            } catch {
                Output.error(error.description)
                report?.fail(kind: "bundle", printed: error.description)
                if case .esbuildMissing = error { throw ExitCode(2) }
                throw ExitCode(1)
            }
        }

        var recorder: TraceRecorder?
        let redactionReport = RedactionReport()
        if let path = options.trace {
            // Then places in text the page built (an action's failure stack) that still name a
            // bundle are mapped to the module's lines, as they are on stderr.
            let redactor = TraceRedactor.chain([redaction.redactor(reporting: redactionReport), { _, _, message in SourceMaps.shared.rewriteJSON(message) }])
            do { recorder = try TraceRecorder(filePath: path, redactor: redactor) } catch {
                throw CLIError.badArgument("cannot write the trace: \(error)").exit()
            }
        }
        let current = CurrentStep()
        let guardian = RunGuard(recorder: recorder, redactionReport: redactionReport, memoryLimit: memoryLimit, report: report, context: { current.value })
        // A file that fails ends the run before `run`'s dispatches: each is listed as skipped.
        guardian.dispatching(nil, later: dispatches[...])
        let shell = HeadlessShell(initialData: initialData, root: DemoShell.root, alertAnswer: options.alertAnswer)
        let page: HostedPage
        do {
            page = try await HostedPage.makeEmpty(.init(
                name: name,
                timeLimit: timeLimit,
                dispatchTimeout: timeLimit + .seconds(5),
                storeRuntime: !options.bare,
                flush: flush,
                trace: recorder,
                bridge: BridgeConfiguration(urlAllowlist: URLAllowlist(hosts: DemoShell.allowedHosts)),
                app: MicroApp(id: name, grants: .framework(plus: Set(options.grant))),
                shell: shell,
                onConsole: ConsolePrinter.handler,
                onUnresponsive: { activity in
                    let (message, file) = current.describeUnresponsive(activity, timeLimit: timeLimit)
                    if let file {
                        // The engine's stop names no file here: `--json`'s error.stop takes this one.
                        var failure = RunReport.Failure(kind: "unresponsive", printed: message)
                        failure.file = file
                        report?.fail(failure)
                    }
                    guardian.exit(1, kind: "unresponsive", message: message)
                }))
        } catch {
            guardian.exit(1, kind: "setup", message: "statehub: \(error)")
        }
        report?.attach(hub: page.hub, shell: shell)
        if !options.bare {
            do { try await page.engine.execute(Suggestions.definedStoresScript, sourceURL: "statehub:cli/defined-stores.js") } catch {
                guardian.exit(1, kind: "setup", message: "statehub: \(error)")
            }
        }
        current.engine = page.engine
        // Past the wall limit, so that limit's message (which says what was pending) comes first.
        var session = PageSession(page: page, guardian: guardian, timeLimit: timeLimit, idleLimit: wallLimit + .seconds(5),
                                  recorder: recorder, shell: shell, initialShellState: shell.state, current: current, report: report)
        // Armed once the engine and the store runtime are up, before the first file loads: the
        // limit is the user's scripts' time, not the engine's start, which takes seconds on a busy
        // machine. Before `load`, because a file whose microtasks never end never returns from it.
        guardian.armDeadline(after: wallLimit, kind: "wallLimit") { current.describeUnfinished(after: wallLimit, timeLimit: timeLimit) }
        for script in loaded {
            current.value = script.path
            do {
                try await page.load(.init(path: script.sourceURL, source: script.source, lineMap: script.lineMap, scriptURL: scriptURLs[script.path]))
            } catch {
                if case .bundle(_, let underlying) = error {
                    if let stop = (underlying as? EngineError)?.stop {
                        var stop = stop
                        if stop.sourceURL.map({ $0.isEmpty }) ?? true { stop.sourceURL = script.path }
                        report?.fail(RunReport.Failure(kind: "stopped", printed: SourceMaps.shared.rewrite(Report.describe(stop)), stop: stop))
                    }
                    session.fail(Report.describe(underlying, file: script.path, timeLimit: timeLimit, source: script.source), kind: Report.kind(of: underlying))
                }
                session.fail("statehub: \(error)", kind: "setup")
            }
            // A timer a file set may fire, and be stopped, while the file loads or only after:
            // for `run` either way is printed and the dispatches go on, so the outcome does
            // not depend on when the timer came due.
            if stopsEndTheRun {
                await session.failOnUnhandled()
            } else if await session.reportUnhandledStops() {
                session.stoppedWhileLoading = true
            }
        }
        current.value = files.last ?? "statehub"
        if !options.bare {
            session.storeFiles = await Suggestions.storeFiles(page.engine)
            if let unmatched = await Suggestions.unmatchedRedactedArgument(options.redactArgument, engine: page.engine) {
                guardian.exit(2, kind: "usage", message: "statehub: --redact-argument \(unmatched)")
            }
        }
        return session
    }

    /// Runs timers until nothing is pending (at most the idle limit), failing on unhandled
    /// errors; with `stopsEndTheRun` false the stops are printed as they come
    /// (``reportUnhandledStops()``), so an interval stopped again and again until the wall
    /// limit is not silent, and the result says whether there was one.
    @discardableResult
    func settle(stopsEndTheRun: Bool = true) async -> Bool {
        var stopped = false
        do {
            // Waited for in slices: `eval` ends at the first unhandled error, as it does while
            // files load, and work that keeps coming (an interval, finalizers that each run
            // away) does not hold the run silently until the idle limit.
            let deadline = ContinuousClock.now + idleLimit
            while true {
                do {
                    try await page.engine.waitUntilIdle(timeout: min(.milliseconds(100), max(deadline - ContinuousClock.now, .milliseconds(1))))
                    break
                } catch EngineError.timeout {
                    if stopsEndTheRun { await failOnUnhandled() } else if await reportUnhandledStops() { stopped = true }
                    if ContinuousClock.now >= deadline { throw EngineError.timeout(after: idleLimit) }
                }
            }
        } catch let error as JavaScriptError {
            fail(error, kind: "uncaughtException")
        } catch {
            fail(Report.describe(error, file: nil, timeLimit: timeLimit, source: nil), kind: Report.kind(of: error))
        }
        if stopsEndTheRun { await failOnUnhandled() }
        return stopped
    }

    /// For `run`, whose page goes on after a stop: prints each stop of a timer or microtask
    /// (`FILE:LINE: stopped after N s …`, `--json`'s `error` of kind `stopped`) and forgets
    /// it; returns whether there was one. Exits 1 on an unhandled rejection or an error
    /// thrown in a timer, as ``failOnUnhandled()`` does.
    func reportUnhandledStops() async -> Bool {
        let errors = await page.engine.takeUnhandledErrors()
        guard !errors.isEmpty else { return false }
        for unhandled in errors {
            guard unhandled.kind == .timeLimitExceeded else { fail(unhandled) }
            let (printed, stop) = describeStop(unhandled)
            Output.error(printed)
            report?.fail(RunReport.Failure(kind: "stopped", printed: SourceMaps.shared.rewrite(printed), stop: stop))
        }
        return true
    }

    /// Exits 1 on the first unhandled rejection, error thrown in a timer, or stop of a
    /// microtask or timer (printed as a stop: `FILE:LINE: stopped after N s`), as `eval` always did.
    func failOnUnhandled() async {
        let errors = await page.engine.unhandledErrors
        guard let first = errors.first else { return }
        fail(first, laterStops: errors.dropFirst().filter { $0.kind == .timeLimitExceeded })
    }

    /// A stop of a timer or microtask as printed, and the engine's data about it.
    private func describeStop(_ unhandled: UnhandledError) -> (String, ScriptStop?) {
        if var stop = unhandled.stop {
            if stop.sourceURL.map({ $0.isEmpty }) ?? true { stop.sourceURL = current.value }
            return (Report.describe(stop), stop)
        }
        let error = unhandled.error
        let place = error.sourceURL.map { $0 + (error.line.map { ":\($0)" } ?? "") } ?? current.value
        return ("\(place): stopped after \(timeLimit.secondsText) (a timer callback or microtask ran past the time limit; --time-limit changes it)", nil)
    }

    /// Prints `first` and exits 1.
    /// Prints `first` and exits 1; a stop is followed by the stops that came after it in the
    /// same wait, a line each (finalizers stopped four times print four lines, not one).
    private func fail(_ first: UnhandledError, laterStops: [UnhandledError] = []) -> Never {
        var error = first.error
        switch first.kind {
        case .unhandledRejection:
            error.message = "unhandled promise rejection: " + error.message
            fail(error, kind: "unhandledRejection")
        case .uncaughtException:
            error.message = "uncaught exception: " + error.message
            fail(error, kind: "uncaughtException")
        case .timeLimitExceeded:
            let (printed, stop) = describeStop(first)
            report?.fail(RunReport.Failure(kind: "stopped", printed: SourceMaps.shared.rewrite(printed), stop: stop))
            let later = laterStops.map { describeStop($0).0 }
            fail(([printed] + later).joined(separator: "\n"), kind: "stopped")
        }
    }

    /// Prints `error`, exits 1; `--json`'s error takes its file, line and column from the
    /// error's own fields (a file name may hold spaces and `:7 `).
    private func fail(_ error: JavaScriptError, kind: String) -> Never {
        let printed = ConsolePrinter.describe(error)
        var failure = RunReport.Failure(kind: kind, printed: SourceMaps.shared.rewrite(printed))
        failure.place(file: error.sourceURL, line: error.line, column: error.column)
        report?.fail(failure)
        fail(printed, kind: kind)
    }

    /// Prints `message`, closes the trace, prints the `--json` object and exits 1.
    func fail(_ message: String, kind: String) -> Never {
        guardian.exit(1, kind: kind, message: message)
    }

    /// Closes the trace and prints the `--json` object; exits 1 if the trace could not be
    /// written, or if `failed`.
    func finish(failed: Bool, stores: [(String, JSONValue)]? = nil) -> Never {
        guardian.finish(failed: failed, stores: stores)
    }
}

/// The file being evaluated or the dispatch running, and the page's engine, for messages
/// printed from other threads (the memory stop, the wall-clock limit, an unresponsive page).
final class CurrentStep: Sendable {
    private let state = Mutex("statehub")
    private let page = Mutex<JavaScriptEngine?>(nil)
    private let storeFile = Mutex<String?>(nil)
    var value: String {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
    var engine: JavaScriptEngine? {
        get { page.withLock { $0 } }
        set { page.withLock { $0 = newValue } }
    }
    /// The file that defined the store of the dispatch running (``PageSession/storeFiles``).
    var file: String? {
        get { storeFile.withLock { $0 } }
        set { storeFile.withLock { $0 = newValue } }
    }

    /// `STEP: stopped after N s (--wall-limit): …` naming what was still running or pending.
    func describeUnfinished(after wallLimit: Duration, timeLimit: Duration) -> String {
        let head = "\(value): stopped after \(wallLimit.secondsText) (the wall-clock limit; --wall-limit changes it): the run had not ended"
        guard let activity = engine?.activity else { return head + " (the page was still being set up)" }
        // Past the unresponsive watch's threshold (a stopped turn on a busy machine may run a
        // little past the limit in wall-clock time).
        if let busy = activity.busyFor, busy >= max(timeLimit * 3 / 2, timeLimit + .seconds(1)) {
            return head + "; the page has been running one turn for \(busy.tenthsText)\(activity.entry.map { " (entered through \($0))" } ?? "")"
                + ": \(Self.unstoppableTurn), which the time limit cannot stop"
        }
        // Short turns one after another (a timer chain, an interval, stops of each): the page
        // was working, not held by one turn nor idle (a `setTimeout(f, 0)` chain was blamed on
        // microtasks, or called idle when the wall limit fell between two of its timers).
        let timers = activity.pendingTimers
        if timers > 0 || activity.busyFor != nil || activity.idleFor < .milliseconds(100) {
            let pending = timers > 0 ? "\(timers) timer\(timers == 1 ? " was" : "s were") still pending" : "it kept running turn after turn"
            return head + "; \(pending) (an interval, or a timer that schedules the next)"
        }
        return head + "; the page was idle, waiting for an answer"
    }

    /// What holds a turn the time limit cannot stop, in words.
    static let unstoppableTurn = "microtasks that keep queueing microtasks (an await loop, a promise chain that re-queues itself) or one long built-in call (a sort of millions of items, a regular expression that backtracks)"

    /// `FILE: stopped after N s: …` for a turn the engine reported it cannot stop, and the
    /// file named when it is the dispatched store's (the engine names none: a dispatch enters
    /// the page through the plugin, and the held thread's stack cannot be read).
    func describeUnresponsive(_ activity: EngineActivity.Snapshot, timeLimit: Duration) -> (message: String, file: String?) {
        let entry = activity.entry.flatMap { $0.hasPrefix("statehub:") ? nil : $0 }
        let storeFile = entry == nil ? file : nil
        let head = "\(entry ?? storeFile ?? value): stopped after \((activity.busyFor ?? timeLimit).tenthsText): one turn of the page ran past the time limit of \(timeLimit.secondsText)"
            + " without reaching a place the limit can stop it at: \(Self.unstoppableTurn)"
        guard let storeFile else { return (head, nil) }
        return (head + ", in \(value) (the file that defines its store; the loop may be in code it calls, and no line can be read while the loop holds the page)", storeFile)
    }
}
