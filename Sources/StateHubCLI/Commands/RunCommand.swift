import ArgumentParser
import CapabilityBridge
import Foundation
import JSEngine
import Logging
import StateHub
import Trace

/// `statehub run FILE... [--dispatch STORE.ACTION 'ARGS_JSON']... [--trace FILE]`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Load stores into an engine mirrored by a hub, run actions from native, print the mirrors.",
        discussion: """
            Files (classic scripts) are evaluated in order after the store runtime, the sync \
            plugin and the capability bridge's page shim and client (so micro-apps can \
            invokeNative against a headless shell). Each --dispatch names STORE.ACTION and is followed by a JSON array of \
            arguments (optional; default []); dispatches run in order, each awaited until it \
            settles. Then every mirrored store is printed as JSON, and the headless shell's \
            final state (navigation stack, header, alerts shown, loading state).

            Exit status: 0; 1 if a script throws, a dispatch fails (its typed error, JS message \
            and stack are printed) or a mirror differs from the engine's $state; 2 for an \
            unreadable file or a malformed argument.
            """
    )

    @Argument(help: "Script files, evaluated in order (put them before the options).")
    var files: [String]

    @Option(name: .customLong("dispatch"), parsing: .upToNextOption,
            help: ArgumentHelp("STORE.ACTION, optionally followed by its arguments as a JSON array.", valueName: "STORE.ACTION ARGS_JSON"))
    var dispatchValues: [String] = []

    @Option(help: "Record every message across the boundary to this NDJSON file.")
    var trace: String?

    @Option(help: "Batching of mirrored mutations: tick (one message per tick) or sync (one per mutation).")
    var flush: String = "tick"

    @Option(help: "Seconds a dispatch may take.")
    var timeout: Double = 30

    // js engineer (issue 13): see RunCommand+HotSwap.swift
    @Option(name: .customLong("hot-swap"), help: ArgumentHelp("After the dispatches, replace the page's store code with FILE; state and mirrors are kept (repeatable).", valueName: "FILE"))
    var hotSwapFiles: [String] = []

    func run() async throws {
        let dispatches: [PlannedDispatch]
        let scripts: [ScriptFile]
        let flushMode: StoreScripts.Flush
        do {
            dispatches = try PlannedDispatch.parse(dispatchValues)
            scripts = try ScriptFile.readAll(files)
            guard let mode = StoreScripts.Flush(rawValue: flush) else { throw CLIError.badArgument("--flush must be tick or sync, not \(flush)") }
            flushMode = mode
        } catch let error as CLIError { throw error.exit() }

        var recorder: TraceRecorder?
        if let trace {
            do { recorder = try TraceRecorder(filePath: trace, redactor: TraceRedactor.jsonKeys(["token", "accessToken", "password"])) } catch {
                throw CLIError.badArgument("cannot write the trace: \(error)").exit()
            }
        }
        let hub = GlobalStateHub(configuration: .init(dispatchTimeout: .milliseconds(Int(timeout * 1000)), trace: recorder))
        let bridge = BridgeHost(configuration: BridgeConfiguration(urlAllowlist: URLAllowlist(hosts: DemoShell.allowedHosts)), trace: recorder)
        let shell = DemoShell.make()
        let engine = try JavaScriptEngine(configuration: .init(
            name: "main",
            logger: Logger(label: "statehub.run", factory: { _ in SwiftLogNoOpLogHandler() }),
            onConsole: ConsolePrinter.handler))
        var failed = false
        do {
            try await hub.attach(engine)
            try await engine.loadStoreRuntime(flush: flushMode)
            for (path, source) in try BridgeScripts.engineScripts() { try await engine.execute(source, sourceURL: path) }
            try await bridge.attach(engine, app: MicroApp(id: "main", grants: .framework()), shell: shell)
            for script in scripts { try await engine.execute(script.source, sourceURL: script.path) }
        } catch let error as JavaScriptError {
            Output.error(ConsolePrinter.describe(error))
            throw ExitCode(1)
        }

        for planned in dispatches {
            do {
                let result = try await hub.dispatch(store: planned.store, action: planned.action, args: planned.arguments)
                Output.line("→ \(planned.store).\(planned.action)(\(planned.argumentsText)) = \(result.jsonText())")
            } catch let error as StateHubError {
                failed = true
                Output.error("✗ \(planned.store).\(planned.action)(\(planned.argumentsText)) failed: \(error)")
                if case .actionThrew(_, _, let failure) = error, !failure.stack.isEmpty {
                    Output.error(failure.stack.split(separator: "\n").map { "    at \($0)" }.joined(separator: "\n"))
                }
            }
        }
        if !(try await hotSwap(engine, trace: recorder)) { failed = true }   // js engineer (issue 13)
        _ = await bridge.waitUntilQuiet(timeout: .seconds(timeout))
        try? await engine.waitUntilIdle(timeout: .seconds(timeout))
        for problem in hub.problems { Output.error("hub: \(problem)") }

        for storeId in hub.storeIDs {
            guard let mirror = hub.state(of: storeId) else { continue }
            Output.line("\(storeId) = \(mirror.prettyText())")
            let actual = try await engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value[\(JSONValue.string(storeId).jsonText())])")
            if !mirror.isSemanticallyEqual(to: actual) {
                failed = true
                Output.error("✗ mirror of \(storeId) differs from the engine's $state: \(actual.jsonText())")
            }
        }
        Output.line("shell = \(shell.state.jsonValue.prettyText())")
        if let recorder {
            do { try recorder.close() } catch { Output.error("statehub: trace: \(error)"); failed = true }
        }
        if failed { throw ExitCode(1) }
    }
}

/// One `--dispatch STORE.ACTION [ARGS_JSON]`.
struct PlannedDispatch {
    var store: String
    var action: String
    var arguments: [JSONValue]
    var argumentsText: String { arguments.map { $0.jsonText() }.joined(separator: ", ") }

    /// Pairs `--dispatch` values: each STORE.ACTION, then its JSON array when one follows.
    static func parse(_ values: [String]) throws(CLIError) -> [PlannedDispatch] {
        var result: [PlannedDispatch] = []
        var index = 0
        while index < values.count {
            let target = values[index]
            index += 1
            let parts = target.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .badArgument("--dispatch needs STORE.ACTION, got \"\(target)\"")
            }
            var arguments: [JSONValue] = []
            if index < values.count, values[index].trimmingCharacters(in: .whitespaces).hasPrefix("[") {
                let text = values[index]
                index += 1
                do {
                    guard case .array(let array) = try JSONValue(parsing: text) else { throw CLIError.badArgument("") }
                    arguments = array
                } catch {
                    throw .badArgument("arguments of --dispatch \(target) are not a JSON array: \(error)")
                }
            }
            result.append(PlannedDispatch(store: parts[0], action: parts[1], arguments: arguments))
        }
        return result
    }
}

/// The headless shell `statehub run` gives micro-apps: what a real shell would hand them,
/// with demo values (the token is redacted in traces).
enum DemoShell {
    static let allowedHosts = ["shop.example.com"]

    static func make() -> HeadlessShell {
        HeadlessShell(
            initialData: ["apiBaseURL": "https://api.example.com", "userId": "u-42", "token": "demo-token", "locale": "en-US"],
            root: .web(url: "https://shop.example.com/", title: "Shop"))
    }
}
