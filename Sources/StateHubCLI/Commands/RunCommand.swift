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
            by a JSON array of arguments (optional; default []); dispatches run in order, each \
            awaited until it settles. Then every mirrored store is printed as JSON, and the \
            headless shell's final state.

            Limits: a script's top level, an action or a timer callback that runs past \
            --time-limit, with the microtasks it drains, is stopped (FILE:LINE: stopped \
            after N s); microtasks that never call native code cannot be stopped, so a turn \
            that runs past twice the limit ends the run; a whole run longer than \
            --wall-limit (default 120 s) ends with what was still running or pending; a \
            process over --memory-limit is stopped; each way the run exits 1.

            Exit status: 0; 1 if a script throws or is stopped, a promise rejection is \
            unhandled, a timer callback throws, a dispatch fails, or a mirror differs from the \
            engine's $state; 2 for an unreadable file or a malformed argument.
            """
    )

    @Argument(help: "Script files, evaluated in order (before the options, or after them all).")
    var files: [String] = []

    @Option(name: .customLong("dispatch"), parsing: .upToNextOption,
            help: ArgumentHelp("STORE.ACTION, optionally followed by its arguments as a JSON array.", valueName: "STORE.ACTION ARGS_JSON"))
    var dispatchValues: [String] = []

    @OptionGroup var page: PageOptions

    @Option(help: .hidden)
    var timeout: String?

    @Flag(help: "Print the result as one JSON object (dispatch results, mirrors, shell, problems) on stdout.")
    var json = false

    // js engineer (issue 13): see RunCommand+HotSwap.swift
    @Option(name: .customLong("hot-swap"), help: ArgumentHelp("After the dispatches, replace the page's store code with FILE; state and mirrors are kept (repeatable).", valueName: "FILE"))
    var hotSwapFiles: [String] = []

    // server (issue 14): see RunCommand+Server.swift
    @OptionGroup var remote: ServerRunOptions

    func run() async throws {
        let dispatches: [PlannedDispatch]
        let filesAfterDispatch: [String]
        var options = page
        do {
            (dispatches, filesAfterDispatch) = try PlannedDispatch.parse(dispatchValues)
            // `--timeout` was the dispatch limit before `--time-limit` covered everything.
            if let timeout {
                _ = try PageOptions.seconds(timeout, option: "--timeout", maximum: 86_400)
                options.timeLimit = timeout
            }
        } catch { throw error.exit() }
        let delivered = try await deliveredFiles()  // server (issue 14)
        let session = try await PageSession.start(options: options, files: delivered.files + files + filesAfterDispatch, name: "main")
        let hub = session.page.hub
        var failed = false
        var results: [JSONValue] = []
        for planned in dispatches {
            session.current.value = "dispatch \(planned.store).\(planned.action)"   // harden: named by the run limits
            do {
                let result = try await hub.dispatch(store: planned.store, action: planned.action, args: planned.arguments)
                if json {
                    results.append(["dispatch": .string("\(planned.store).\(planned.action)"), "ok": true, "value": result])
                } else {
                    Output.line("→ \(planned.store).\(planned.action)(\(planned.argumentsText)) = \(result.javaScriptText())")
                }
            } catch let error as StateHubError {
                failed = true
                let text = await Suggestions.explain(error, hub: hub, engine: session.page.engine, timeLimit: session.timeLimit)
                results.append(["dispatch": .string("\(planned.store).\(planned.action)"), "ok": false, "error": .string(text)])
                Output.error("✗ \(planned.store).\(planned.action)(\(planned.argumentsText)) failed: \(text)")
                if case .actionThrew(_, _, let failure) = error, !failure.stack.isEmpty {
                    Output.error(failure.stack.split(separator: "\n").map { "    at \($0)" }.joined(separator: "\n"))
                }
                // A stop leaves the page usable (the hub resyncs the store), so the dispatches
                // after it run as they would after an action that threw.
            }
            await session.failOnUnhandled()
        }
        // A page that does not come back after a stop must not keep the process alive.
        session.guardian.armDeadline(after: session.timeLimit + .seconds(30), reason: "the page did not become idle after the run")
        _ = await session.page.bridge.waitUntilQuiet(timeout: session.timeLimit)
        await session.settle()
        var problems: [JSONValue] = []
        for problem in hub.problems {
            if json { problems.append(.string(problem.description)) } else { Output.error("hub: \(problem)") }
        }
        if !(try await hotSwap(session.page.engine, trace: session.recorder)) { failed = true }   // js engineer (issue 13)

        var mirrors: [(String, JSONValue)] = []
        for storeId in hub.storeIDs {
            guard let mirror = hub.state(of: storeId) else { continue }
            mirrors.append((storeId, mirror))
            if !json { Output.line("\(storeId) = \(mirror.prettyText())") }
            do {
                let actual = try await session.page.engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value[\(JSONValue.string(storeId).jsonText())])")
                if let difference = mirror.firstDifference(from: actual) {
                    failed = true
                    Output.error("✗ mirror of \(storeId) differs from the engine's $state at \(difference)")
                }
            } catch {
                failed = true
                Output.error("✗ could not read the engine's $state of \(storeId): \(error)")
            }
        }
        let shellState = session.shell.state.jsonValue
        if json {
            var object = JSONValue.ObjectMembers()
            object["dispatches"] = .array(results)
            object["stores"] = .object(.init(uniqueKeysWithValues: mirrors.map { (JSONKey($0.0), $0.1) }))
            object["shell"] = shellState
            object["problems"] = .array(problems)
            if let delivery = delivered.delivery { object["delivery"] = delivery }
            object["ok"] = .bool(!failed)
            Output.raw(JSONValue.object(object).jsonText())
        } else {
            Output.line("shell = \(shellState.prettyText())")
        }
        session.finish(failed: failed)
    }
}

/// One `--dispatch STORE.ACTION [ARGS_JSON]`.
struct PlannedDispatch {
    var store: String
    var action: String
    var arguments: [JSONValue]
    var argumentsText: String { arguments.map { $0.cutText() }.joined(separator: ", ") }

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
            let parts = target.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .badArgument("--dispatch needs STORE.ACTION, got \"\(target)\" (script files go before the options, or after them all: statehub run a.js --dispatch cart.add '[1]')")
            }
            var arguments: [JSONValue] = []
            if index < values.count, values[index].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                let text = values[index]
                index += 1
                do {
                    guard case .array(let array) = try JSONValue(parsing: text) else { throw CLIError.badArgument("") }
                    arguments = array
                } catch {
                    throw .badArgument("the arguments of --dispatch \(target) must be a JSON array, e.g. '[1, \"a\"]': \(text)")
                }
            } else if index < values.count, !isScriptPath(values[index]),
                      !values[index].contains(".") || (try? JSONValue(parsing: values[index])) != nil {
                throw .badArgument("the arguments of --dispatch \(target) must be a JSON array, e.g. '\(suggestion(for: values[index]))', not \(values[index])")
            }
            result.append(PlannedDispatch(store: parts[0], action: parts[1], arguments: arguments))
        }
        return (result, files)
    }

    /// A JSON array holding `text`: the value itself when it is JSON (`5` → `[5]`), else as a
    /// string (`notjson` → `["notjson"]`), so the suggestion can be pasted as it is.
    static func suggestion(for text: String) -> String {
        let value = (try? JSONValue(parsing: text)) ?? .string(text)
        return JSONValue.array([value]).jsonText()
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
