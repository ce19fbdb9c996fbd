import ArgumentParser
import Delivery
import Foundation
import StateHubPage

/// `statehub run --server URL --app NAME --user ID`: the micro-app comes from a StateHub
/// server through Delivery (docs/server.md, "Delivery") instead of, or before, local files.
struct ServerRunOptions: ParsableArguments {
    @Option(help: "A StateHub server (statehub serve) to load the micro-app from.")
    var server: String?

    @Option(help: "The micro-app to load from --server.")
    var app: String?

    @Option(help: "The user the server picks a version for (rollouts, A/B).")
    var user: String?

    @Option(help: "The shell version sent as nativeVersion.")
    var nativeVersion: String = "1.0.0"

    @Option(help: "Where downloaded versions are kept (default: ./statehub-apps).")
    var appCache: String?
}

extension RunCommand {
    /// The delivered bundle as the first file to run, or nothing without `--server`. Each
    /// candidate version is first loaded into a probe page: one that throws is marked failed
    /// and the last good version is used instead (printed with the reason).
    func deliveredFiles() async throws -> [String] {
        guard let serverText = remote.server else { return [] }
        guard let url = URL(string: serverText), url.scheme == "http" || url.scheme == "https" else {
            throw CLIError.badArgument("--server must be an http(s) URL, not \(serverText)").exit()
        }
        guard let app = remote.app, let user = remote.user else {
            throw CLIError.badArgument("--server needs --app and --user").exit()
        }
        let root = URL(fileURLWithPath: remote.appCache ?? "statehub-apps")
        let delivery = MicroAppDelivery(configuration: .init(server: url, root: root, nativeVersion: remote.nativeVersion))
        do {
            let delivered = try await delivery.load(app: app, user: user) { candidate in
                let source = try String(contentsOf: candidate.bundleFile, encoding: .utf8)
                let probe = try await HostedPage.makeEmpty()
                defer { Task { await probe.close() } }
                try await probe.load(.init(path: candidate.bundleFile.path, source: source))
            }
            Output.error("statehub: \(app) \(delivered.version) from \(serverText): \(delivered.status)")
            return [delivered.bundleFile.path]
        } catch {
            Output.error("statehub: \(error)")
            throw ExitCode(1)
        }
    }
}
