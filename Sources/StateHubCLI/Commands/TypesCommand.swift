import ArgumentParser
import CapabilityBridge
import Foundation
import StateHub
import StateHubTypes
import Trace

/// `statehub types FILE...`: Swift types for each store's state and a typed action facade,
/// inferred from the stores' initial states and from traces (docs/types.md).
struct TypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "Generate Swift Codable types and typed actions for the stores the files define.",
        discussion: """
            Loads the files in the page `run` builds, reads each store's initial state (tagged values \
            included) and its actions, then every state and action argument in the traces given with \
            --from-trace (snapshots, operations applied, dispatched actions). Writes one Swift file: \
            per store a STATE type (CartState for store cart) and a facade (CartStore) whose methods \
            dispatch the actions with typed arguments. Rules and names: docs/types.md.

            Exit status: 0 on success (with --check: the file matches); 1 when the page fails, or \
            with --check when the file no longer matches (a short diff on stderr); 2 for arguments \
            and unreadable files or traces.
            """
    )

    @Argument(help: "Store files, evaluated in order (as `run` does).")
    var files: [String] = []

    @Option(name: .customLong("from-trace"), help: ArgumentHelp("Also learn states and action arguments from this NDJSON trace (repeatable).", valueName: "FILE"))
    var fromTrace: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the Swift file here (default: stdout).", valueName: "FILE"))
    var output: String?

    @Option(help: ArgumentHelp("Compare with this committed file instead of writing: exit 1 with a short diff when it no longer matches.", valueName: "FILE"))
    var check: String?

    @Option(name: .customLong("bridge-ts"), help: ArgumentHelp("Also write a TypeScript declaration file for the bridge actions a page may call (invokeNative).", valueName: "FILE"))
    var bridgeTS: String?

    @Option(name: .customLong("max-line-bytes"), help: ArgumentHelp("The longest trace line read.", valueName: "N"))
    var maxLineBytes: Int = TraceFile.defaultMaximumLineBytes

    @OptionGroup var page: PageOptions

    func run() async throws {
        guard !files.isEmpty || !fromTrace.isEmpty else {
            throw CLIError.badArgument("types needs store files, --from-trace files, or both").exit()
        }
        if output != nil, check != nil { throw CLIError.badArgument("--check compares, -o writes: give one of them").exit() }
        // Unreadable traces fail before a page starts; their records are read after it, streamed.
        for path in fromTrace where !FileManager.default.isReadableFile(atPath: path) {
            throw CLIError.badArgument("--from-trace \(path): \(TraceFileError.unreadable(path: path))").exit()
        }
        var stores: [String: StoreObservations] = [:]
        var session: PageSession?
        if !files.isEmpty {
            let started = try await PageSession.start(options: page, files: files, name: "types")
            session = started
            started.guardian.armDeadline(after: started.idleLimit + started.timeLimit + .seconds(30), reason: "the page did not become idle")
            await started.settle()
            let actions = StoreActionsScript.parse(try? await started.page.engine.evaluate(StoreActionsScript.source))
            var mirrors: [String: JSONValue] = [:]
            var getters: [String: JSONValue] = [:]
            for id in started.page.hub.storeIDs {
                mirrors[id] = started.page.hub.state(of: id)
                getters[id] = started.page.hub.getters(of: id)
            }
            stores = StoreActionsScript.observations(actions: actions, mirrors: mirrors, getters: getters)
        }
        for path in fromTrace {
            let reader = TypesTraceReader()
            do {
                try TraceFile.forEachRecord(inFileAt: path, maximumLineBytes: maxLineBytes) { reader.observe($0, into: &stores) }
            } catch {
                throw CLIError.badArgument("--from-trace \(path): \(error)").exit()
            }
        }
        if stores.isEmpty {
            // A file with no store (js/examples/micro-app.js) otherwise gives a file of one import, silently.
            Output.error("statehub: no store found: the files created none (a store exists once its `useStore()` runs, "
                + "not at `defineStore`) and no trace names one; the output has no types")
        }
        let sources = files.map { URL(fileURLWithPath: $0).lastPathComponent } + fromTrace.map { "trace " + URL(fileURLWithPath: $0).lastPathComponent }
        let text = SwiftTypesWriter.write(stores: Array(stores.values), sources: sources)
        var failed = false
        if let check {
            guard let data = FileManager.default.contents(atPath: check) else {
                throw CLIError.unreadableFile(path: check, reason: "no such file, or not readable").exit()
            }
            if let difference = TypesCheck.difference(committed: String(decoding: data, as: UTF8.self), generated: text) {
                Output.error("✗ \(check) no longer matches what `statehub types` generates: \(difference)\nregenerate it with -o \(check)")
                failed = true
            }
        } else if let output {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
                throw CLIError.badArgument("cannot write \(output): \(error.localizedDescription)").exit()
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if let bridgeTS {
            // The handlers of the page `run` builds (its framework layer), or of a bare host.
            let declarations = BridgeTypeScript.declarations((session?.page.bridge ?? BridgeHost()).actionTypes)
            if check != nil {
                let path = bridgeTS
                let committed = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
                if let difference = TypesCheck.difference(committed: committed, generated: declarations) {
                    Output.error("✗ \(path) no longer matches the bridge's handlers: \(difference)\nregenerate it without --check")
                    failed = true
                }
            } else {
                do { try Data(declarations.utf8).write(to: URL(fileURLWithPath: bridgeTS), options: .atomic) } catch {
                    throw CLIError.badArgument("cannot write \(bridgeTS): \(error.localizedDescription)").exit()
                }
            }
        }
        if let session { session.finish(failed: failed) }
        if failed { throw ExitCode(1) }
    }
}
