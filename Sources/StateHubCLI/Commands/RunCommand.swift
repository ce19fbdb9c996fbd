import ArgumentParser
import CapabilityBridge
import Foundation
import JSEngine
import StateHub
import StateHubPage
import Trace

/// `statehub run FILE... [--dispatch STORE.ACTION 'ARGS_JSON']... [--trace FILE]`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Load stores into an engine mirrored by a hub, run actions from native, print the mirrors.",
        discussion: """
            The page is the one `eval` gives (HostedPage: web globals, the Pinia runtime with \
            an active Pinia, the sync plugin, the bridge's page shim with `document` and \
            `invokeNative` against a headless shell). Files are evaluated in order (ES modules \
            are bundled with esbuild first). Each --dispatch names STORE.ACTION and is followed \
            by a JSON array of arguments (optional; default []), or written as a call with JSON \
            arguments, 'cart.add("A1", 2)'; dispatches run in order, each \
            awaited until it settles. Then every mirrored store is printed as JSON, and the \
            headless shell's final state.

            Limits: a script's top level, an action or a timer callback that runs past \
            --time-limit, with the microtasks it drains, is stopped (FILE:LINE: stopped \
            after N s); microtasks that never call native code cannot be stopped, so a turn \
            that has run 1.25 times the limit (CPU and wall-clock) ends the run, within twice \
            the limit on a machine that gives the page its core; a whole run longer than \
            --wall-limit (default 120 s) ends with what was still running or pending; a \
            process over --memory-limit is stopped; each way the run exits 1. A stopped \
            action, timer or microtask leaves the page usable: the stop is printed and the \
            later dispatches run. A run that ends in the middle prints each dispatch it did \
            not run as skipped (⤼ STORE.ACTION(ARGS) skipped: …), and lists it in --json. \
            A run needs 7 GiB of address space (6 GiB with JSC_useJIT=0; JavaScriptCore \
            reserves it): under a lower `ulimit -v` the run exits 1 naming the limit before it \
            starts an engine.

            Exit status: 0; 1 if a script throws or is stopped, a promise rejection is \
            unhandled, a timer callback throws, a dispatch fails, a mirror differs from the \
            engine's $state, a store the page created never reached its mirror, or the hub \
            recorded a problem (a message refused or repaired; each is printed as "hub: …"); \
            2 for an unreadable file or a malformed argument.

            --json prints one JSON object on stdout whatever happens (ok, error, dispatches, \
            stores, shell, problems, diagnostics; docs/cli.md, "run --json"); the scripts' console output \
            and the diagnostics then go to stderr.
            """
    )

    @Argument(help: "Script files, evaluated in order (before the options, or after them all).")
    var files: [String] = []

    @Option(name: .customLong("dispatch"), parsing: .upToNextOption,
            help: ArgumentHelp("STORE.ACTION, optionally followed by its arguments as a JSON array (or STORE.ACTION(ARG, ...) with JSON arguments).", valueName: "STORE.ACTION ARGS_JSON"))
    var dispatchValues: [String] = []

    /// Every `--dispatch` value, gathered before parsing (``DispatchArguments``).
    @Option(name: .customLong("dispatch-list"), help: .hidden)
    var dispatchList: String?

    @OptionGroup var page: PageOptions

    @Option(help: .hidden)
    var timeout: String?

    @Flag(help: "Print one JSON object on stdout however the run ends (ok, error, dispatches, stores, shell, problems, diagnostics); console output goes to stderr.")
    var json = false

    // see RunCommand+HotSwap.swift
    @Option(name: .customLong("hot-swap"), help: ArgumentHelp("After the dispatches, replace the page's store code with FILE; state and mirrors are kept (repeatable).", valueName: "FILE"))
    var hotSwapFiles: [String] = []

    // see RunCommand+Server.swift
    @OptionGroup var remote: ServerRunOptions

    func run() async throws {
        let report = json ? RunReport() : nil
        report?.activate()
        do {
            try await runPage(report: report)
        } catch {
            // Ended before the page ran (an argument, a file, esbuild): the object is still printed.
            if let report {
                let code = (error as? ExitCode)?.rawValue ?? 1
                report.failWithLastDiagnostic(kind: code == 2 ? "usage" : "error")
                report.print(ok: false)
            }
            throw error
        }
    }

    /// Everything `run` does; it ends the process itself (``PageSession/finish(failed:)``)
    /// once the page has run, and throws only before that.
    private func runPage(report: RunReport?) async throws {
        let dispatches: [PlannedDispatch]
        let filesAfterDispatch: [String]
        var options = page
        do {
            (dispatches, filesAfterDispatch) = try PlannedDispatch.parse(try DispatchArguments.values(of: dispatchList) + dispatchValues)
            // `--timeout` was the dispatch limit before `--time-limit` covered everything.
            if let timeout {
                _ = try PageOptions.seconds(timeout, option: "--timeout", maximum: 86_400)
                options.timeLimit = timeout
            }
        } catch { throw error.exit() }
        let delivered = try await deliveredFiles()
        report?.setDelivery(delivered.delivery)
        // An empty page has nothing to dispatch to: say what `run` wants instead of printing an empty shell.
        if delivered.files.isEmpty, files.isEmpty, filesAfterDispatch.isEmpty {
            throw CLIError.badArgument("run needs script files to load, e.g. statehub run js/examples/cart.js --dispatch 'cart.add({\"id\":\"p1\",\"name\":\"Pen\",\"price\":1.5})' (or --server URL --app APP --user USER)").exit()
        }
        // Built once: each dispatch hands the guard a slice of it (a copy per dispatch would be quadratic).
        let callTexts = dispatches.map(\.callText)
        let session = try await PageSession.start(options: options, files: delivered.files + files + filesAfterDispatch, name: "main", report: report,
                                               dispatches: callTexts, scriptURLs: delivered.scriptURLs, stopsEndTheRun: false)
        let hub = session.page.hub
        var failed = session.stoppedWhileLoading
        var stops = StopPrinter()
        for (position, planned) in dispatches.enumerated() {
            session.current.value = "dispatch \(planned.store).\(planned.action)"   // named by the run limits
            session.current.file = session.storeFiles[planned.store]
            let name = "\(planned.store).\(planned.action)"
            session.guardian.dispatching(callTexts[position], later: callTexts[(position + 1)...])
            do {
                let result = try await hub.dispatch(store: planned.store, action: planned.action, args: planned.arguments)
                guard session.guardian.finishedDispatch() else { break }
                if let report {
                    report.addDispatch(["dispatch": .string(name), "ok": true, "value": result])
                } else {
                    Output.line("→ \(name)(\(planned.argumentsText)) = \(result.javaScriptText())")
                }
            } catch let error as StateHubError {
                if error.isStop, hub.problems.contains(where: \.isUnstoppable) {
                    // A turn the limit cannot stop holds the page's thread: the engine is
                    // ending the run (onUnresponsive), listing this dispatch and those after it.
                    try? await Task.sleep(for: session.timeLimit + .seconds(5))
                    session.fail("\(name): stopped: the page stopped answering (a turn the time limit cannot stop)", kind: "unresponsive")
                }
                guard session.guardian.finishedDispatch() else { break }
                failed = true
                if case .stopped(let store, let action, _, _) = error { stops.printedByDispatch("\(store).\(action)") }
                let stop = Self.stop(of: error, in: hub.problems)
                let text = await Suggestions.explain(error, hub: hub, engine: session.page.engine, timeLimit: session.timeLimit, stop: stop)
                var stack: String?
                if case .actionThrew(_, _, let failure) = error, !failure.stack.isEmpty {
                    stack = failure.stack.split(separator: "\n").map { "    at \($0)" }.joined(separator: "\n")
                }
                Output.error("✗ \(name)(\(planned.argumentsText)) failed: \(text)")
                if let stack { Output.error(stack) }
                if let report {
                    var failure = RunReport.Failure(kind: error.isStop ? "stopped" : "dispatch", printed: "\(name) failed: \(text)" + (stack.map { "\n" + $0 } ?? ""))
                    failure.locate(in: error, stop: stop)
                    failure.stop = stop.map(Report.json)
                    var entry: JSONValue.ObjectMembers = ["dispatch": .string(name), "ok": false, "error": .string(SourceMaps.shared.rewrite(text)), "kind": .string(failure.kind)]
                    if let file = failure.file { entry["file"] = .string(file) }
                    if let line = failure.line { entry["line"] = .number(Double(line)) }
                    if let column = failure.column { entry["column"] = .number(Double(column)) }
                    if let stack { entry["stack"] = .string(SourceMaps.shared.rewrite(stack)) }
                    if let stop = failure.stop { entry["stop"] = stop }
                    report.addDispatch(.object(entry))
                    report.fail(failure)
                }
                // A stop leaves the page usable (the hub resyncs the store), so the dispatches
                // after it run as they would after an action that threw.
            }
            // So does a stopped timer or microtask: printed, and the dispatches go on. A turn
            // the limit cannot stop ends the run instead (RunGuard lists what it skipped).
            if await session.reportUnhandledStops() { failed = true }
            if stops.printNew(hub.problems, report: report) { failed = true }
        }
        // A page that does not come back after a stop must not keep the process alive.
        session.guardian.armDeadline(after: session.timeLimit + .seconds(30), reason: "the page did not become idle after the run")
        _ = await session.page.bridge.waitUntilQuiet(timeout: session.timeLimit)
        if await session.settle(stopsEndTheRun: false) { failed = true }
        if await session.reportUnhandledStops() { failed = true }
        if stops.printNew(hub.problems, report: report) { failed = true }
        // A problem is something the hub refused or had to repair (a message over a cap, an
        // operation that did not apply, a page's error): the run did not do what it said.
        let problems = hub.problems
        if !problems.isEmpty {
            failed = true
            report?.fail(kind: "problems", printed: "statehub: the hub recorded \(problems.count) problem\(problems.count == 1 ? "" : "s"): \(problems[0])")
            // Stops are printed where they happened (a failed dispatch, the run's end): not twice.
            if report == nil {
                for problem in problems {
                    switch problem.kind {
                    case .stopped, .scriptStopped: continue
                    default: Output.error("hub: \(problem)")
                    }
                }
            }
        }
        if !(try await hotSwap(session.page.engine, trace: session.recorder)) {
            failed = true
            report?.failWithLastDiagnostic(kind: "hotSwap")
        }

        var mirrors: [(String, JSONValue)] = []
        for storeId in hub.storeIDs {
            guard let mirror = hub.state(of: storeId) else { continue }
            mirrors.append((storeId, mirror))
            if report == nil {
                Output.line("\(storeId) = \(mirror.prettyText())")
                // Getters mirror read-only beside the state (PROTOCOL.md A.13); a store without any prints none.
                if let getters = hub.getters(of: storeId), getters != .object([:]) {
                    Output.line("\(storeId) getters = \(getters.prettyText())")
                }
            }
            do {
                // The run's own read, not the page's work: a large state may take longer to encode
                // than the page's limit allows a turn (a healthy run with 200,000 rows failed here).
                let actual = try await session.page.engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value[\(JSONValue.string(storeId).jsonText())])",
                                                                    sourceURL: "statehub:cli/compare-mirror.js", timeLimit: max(session.timeLimit, .seconds(20)))
                if let difference = mirror.firstDifference(from: actual) {
                    failed = true
                    Output.error("✗ mirror of \(storeId) differs from the engine's $state at \(difference)")
                    report?.failWithLastDiagnostic(kind: "mirror")
                }
            } catch {
                failed = true
                Output.error("✗ could not read the engine's $state of \(storeId): \(error)")
                report?.failWithLastDiagnostic(kind: "mirror")
            }
        }
        if !options.bare {
            for storeId in await Self.storesInPage(session.page.engine) where hub.state(of: storeId) == nil {
                failed = true
                Output.error("✗ store \(storeId) was created in the page but never reached the mirror: " + Suggestions.whyNotMirrored(storeId, hub: hub))
                report?.failWithLastDiagnostic(kind: "notMirrored")
            }
        }
        // A store-only page never touches the shell: its untouched demo state would only be noise.
        if report == nil, session.shell.state != session.initialShellState {
            Output.line("shell = \(session.shell.state.jsonValue.prettyText())")
        }
        session.finish(failed: failed, stores: mirrors)
    }

    /// The engine's data about the stop that failed a dispatch: the hub recorded it as a
    /// problem of that store and action before failing the dispatch.
    static func stop(of error: StateHubError, in problems: [HubProblem]) -> ScriptStop? {
        guard case .stopped(let store, let action, _, _) = error else { return nil }
        return problems.last { problem in
            guard problem.storeId == store, case .stopped(action, _) = problem.kind else { return false }
            return problem.stop != nil
        }?.stop
    }

    /// The ids of the stores created in the page's active Pinia (empty when it has none).
    static func storesInPage(_ engine: JavaScriptEngine) async -> [String] {
        let script = "(function(){var p=typeof getActivePinia==='function'&&getActivePinia();return p&&p._s?Array.from(p._s.keys()):[]})()"
        return ((try? await engine.evaluate(script))?.arrayValue ?? []).compactMap(\.stringValue)
    }
}

extension StateHubError {
    /// Whether the page stopped the action at its time limit.
    var isStop: Bool {
        if case .stopped = self { return true }
        return false
    }
}

extension HubProblem {
    /// Whether the page reported a turn the time limit cannot stop (it answers nothing after).
    var isUnstoppable: Bool {
        if case .scriptStopped(let stop) = kind { return stop.kind == .unstoppable }
        return false
    }
}

extension RunReport.Failure {
    /// Takes the file and line from the error's own data, not the printed text (a file name
    /// may hold spaces and `:7 `): the place a stop names, or the first frame of a thrown
    /// error's stack read from its end.
    mutating func locate(in error: StateHubError, stop: ScriptStop?) {
        switch error {
        case .actionThrew(_, _, let failure):
            guard let frame = failure.stack.split(separator: "\n").first else { return }
            // `function@FILE:LINE:COLUMN`: a function name holds no `@`, a path may.
            let site = frame.firstIndex(of: "@").map { String(frame[frame.index(after: $0)...]) } ?? String(frame)
            guard let place = Self.trailingPlace(SourceMaps.shared.rewrite(site)) else { return }
            (file, line, column) = (place.file, place.line, place.column)
        case .stopped:
            guard let stop else { return }
            (file, line, column) = (nil, nil, nil)
            place(file: stop.sourceURL, line: stop.line, column: nil)
        default:
            break
        }
    }
}

/// One `--dispatch STORE.ACTION [ARGS_JSON]`.
struct PlannedDispatch {
    var store: String
    var action: String
    var arguments: [JSONValue]
    var argumentsText: String { arguments.map { $0.cutText() }.joined(separator: ", ") }
    /// `STORE.ACTION(ARGS)`, as the run prints it.
    var callText: String { "\(store).\(action)(\(argumentsText))" }

    /// Pairs `--dispatch` values: each STORE.ACTION, then its JSON array when one follows.
    /// A value that names a script (`.js`, `.mjs`, `.cjs`, `.ts`, `.mts`, or an existing file)
    /// is not a dispatch: files written after `--dispatch` are collected by the option (it
    /// reads up to the next option), so they are handed back as `files`, to load in order.
    static func parse(_ values: [String]) throws(CLIError) -> (dispatches: [PlannedDispatch], files: [String]) {
        var result: [PlannedDispatch] = []
        var files: [String] = []
        var index = 0
        while index < values.count {
            let target = values[index]
            index += 1
            if isScriptPath(target) {
                files.append(target)
                continue
            }
            // Spaces around the names (`' cart.add'`, `'cart.add (2)'`) are not part of them.
            var parts = target.split(separator: ".", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .badArgument("--dispatch needs STORE.ACTION, got \"\(target)\" (script files go before the options, or after them all: statehub run a.js --dispatch cart.add '[1]')")
            }
            var arguments: [JSONValue] = []
            // `cart.add(1, "a")` as people write calls: the part in parentheses is the JSON array's inside.
            var called = false
            if let open = parts[1].firstIndex(of: "("), parts[1].hasSuffix(")"), open > parts[1].startIndex {
                let inside = parts[1][parts[1].index(after: open) ..< parts[1].index(before: parts[1].endIndex)]
                let parsed: JSONValue?
                do { parsed = try JSONValue(parsing: "[" + inside + "]") } catch {
                    if case .tooDeep(let maximum) = error.reason { throw tooDeep(parts[0], String(parts[1][..<open]), maximum: maximum) }
                    parsed = nil
                }
                guard case .array(let array)? = parsed else {
                    if let fix = JavaScriptisms("[" + inside + "]") {
                        let call = "\(parts[0]).\(parts[1][..<open])(\(fix.rewritten.dropFirst().dropLast()))"
                        throw .badArgument("--dispatch \(target): \(fix.explanation). Write it as: --dispatch \(JavaScriptisms.shellQuoted(call))")
                    }
                    throw .badArgument("the arguments in --dispatch \(target) must be JSON values separated by commas, e.g. \(parts[0]).\(parts[1][..<open])(1, \"a\"), or write them as a JSON array after it: --dispatch \(parts[0]).\(parts[1][..<open]) '[1, \"a\"]'")
                }
                arguments = array
                parts[1] = parts[1][..<open].trimmingCharacters(in: .whitespacesAndNewlines)
                called = true
            }
            if !called, parts[1].contains("(") || parts[1].contains(")") {
                throw .badArgument("--dispatch \(target): write a call as STORE.ACTION(ARG, ...) with JSON arguments and both parentheses, quoted for the shell, or the arguments as a JSON array after it: --dispatch \(parts[0]).\(parts[1].prefix(while: { $0 != "(" && $0 != ")" })) '[1]'")
            }
            if called, index < values.count, values[index].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                throw .badArgument("--dispatch \(target) has its arguments in parentheses and again in \(values[index]): give them once")
            }
            if index < values.count, values[index].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                let text = values[index]
                index += 1
                do {
                    guard case .array(let array) = try JSONValue(parsing: text) else { throw CLIError.badArgument("") }
                    arguments = array
                } catch let error as JSONParseError where error.isTooDeep {
                    throw tooDeep(parts[0], parts[1], maximum: JSONParsingOptions.defaultMaximumDepth)
                } catch {
                    if let fix = JavaScriptisms(text) {
                        throw .badArgument("--dispatch \(target) \(text): \(fix.explanation). Write it as: --dispatch \(target) \(JavaScriptisms.shellQuoted(fix.rewritten))")
                    }
                    throw .badArgument("the arguments of --dispatch \(target) must be a JSON array, e.g. '[1, \"a\"]': \(text)")
                }
            } else if !called, index < values.count, !isScriptPath(values[index]),
                      !values[index].contains(".") || (try? JSONValue(parsing: values[index])) != nil {
                throw .badArgument("the arguments of --dispatch \(target) must be a JSON array, e.g. '\(suggestion(for: values[index]))', not \(values[index])")
            }
            if let number = firstNonFinite(in: arguments) {
                throw .badArgument("--dispatch \(target): a number is out of range (it reads as \(number < 0 ? "-" : "")infinity): JSON numbers must be finite, between -1.7976931348623157e308 and 1.7976931348623157e308")
            }
            result.append(PlannedDispatch(store: parts[0], action: parts[1], arguments: arguments))
        }
        return (result, files)
    }

    /// The refusal of arguments nested past the parser's cap, naming the depth (the array of
    /// arguments is the first level; every array, object or value inside another adds one).
    static func tooDeep(_ store: String, _ action: String, maximum: Int) -> CLIError {
        .badArgument("the arguments of --dispatch \(store).\(action) nest deeper than \(maximum) levels, the most --dispatch reads (the array of arguments is level 1, and each array, object or value inside another adds one). Pass a flatter value, or build the deep one in the page")
    }

    /// A JSON array holding `text`: the value itself when it is JSON (`5` → `[5]`), else as a
    /// string (`notjson` → `["notjson"]`), so the suggestion can be pasted as it is.
    static func suggestion(for text: String) -> String {
        let value = (try? JSONValue(parsing: text)) ?? .string(text)
        return JSONValue.array([value]).jsonText()
    }

    /// The first number in `values` that JSON cannot carry (`1e400` reads as infinity and
    /// would reach the page as `null`), walked without recursion: arguments nest freely.
    static func firstNonFinite(in values: [JSONValue]) -> Double? {
        var pending = values
        while let value = pending.popLast() {
            switch value {
            case .number(let number) where !number.isFinite: return number
            case .array(let items): pending.append(contentsOf: items)
            case .object(let members): pending.append(contentsOf: members.values)
            default: break
            }
        }
        return nil
    }

    static func isScriptPath(_ value: String) -> Bool {
        let lower = value.lowercased()
        if [".js", ".mjs", ".cjs", ".ts", ".mts"].contains(where: { lower.hasSuffix($0) }) { return true }
        var isDirectory: ObjCBool = false
        return value.contains("/") && FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

/// The headless shell `statehub run` gives micro-apps: what a real shell would hand them,
/// with demo values (the token is redacted in traces).
enum DemoShell {
    static let allowedHosts = ["shop.example.com"]
    static let root = ShellDestination.web(url: "https://shop.example.com/", title: "Shop")
    static let initialData: JSONValue = ["apiBaseURL": "https://api.example.com", "userId": "u-42", "token": "demo-token", "locale": "en-US"]
}

extension JSONParseError {
    /// Whether the text nests deeper than the parser reads.
    var isTooDeep: Bool {
        if case .tooDeep = reason { return true }
        return false
    }
}
