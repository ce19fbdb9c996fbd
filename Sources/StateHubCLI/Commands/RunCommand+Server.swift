import ArgumentParser
import Delivery
import Foundation
import JSEngine
import StateHubPage

/// `statehub run --server URL --app NAME --user ID`: the micro-app comes from a StateHub
/// server through Delivery (docs/server.md, "Delivery") instead of, or before, local files.
struct ServerRunOptions: ParsableArguments {
    @Option(help: "A StateHub server (statehub serve) to load the micro-app from; needs --app and --user.")
    var server: String?

    @Option(help: "The micro-app to load from --server (required with --server).")
    var app: String?

    @Option(help: "The user the server picks a version for (rollouts, A/B; required with --server).")
    var user: String?

    @Option(help: "The shell version sent as nativeVersion.")
    var nativeVersion: String = "1.0.0"

    @Option(help: "Where downloaded versions are kept (default: ./statehub-apps).")
    var appCache: String?

    @Option(help: "A release public key's text (statehub-ed25519-public:…, as `statehub release keygen` prints it; not a file name: --release-key \"$(cat FILE)\"); repeat for several. Without one, signatures are not checked.")
    var releaseKey: [String] = []
}

extension RunCommand {
    /// The delivered bundle as the first file to run, or nothing without `--server`. Each
    /// candidate version is first loaded into a probe page: one that throws is marked failed
    /// and the last good version is used instead (printed with the reason). `delivery` is the
    /// status for `--json`: app, version, `source` (`network` or `cache`), `status` (`fresh`,
    /// `offline`, `fallback`) and the fallback's `reason`.
    /// `scriptURLs`: the delivered bundle's file URL, its `document.currentScript.src`.
    func deliveredFiles() async throws -> (files: [String], delivery: JSONValue?, scriptURLs: [String: String]) {
        guard let serverText = remote.server else { return ([], nil, [:]) }
        let url = try ServerURL.parse(serverText)
        guard let app = remote.app, let user = remote.user else {
            throw CLIError.badArgument("--server needs --app and --user").exit()
        }
        let root = URL(fileURLWithPath: remote.appCache ?? "statehub-apps")
        let trust: ReleaseTrust
        if remote.releaseKey.isEmpty {
            trust = .unsignedAccepted
            Output.error("statehub: release signatures are not checked (no --release-key)")
        } else {
            do {
                trust = try .publicKeys(remote.releaseKey.map(ReleasePublicKey.init(text:)))
            } catch {
                // `--key` takes a file and this option the key itself: a file name is the likely slip.
                if let file = remote.releaseKey.first(where: { FileManager.default.fileExists(atPath: $0) }) {
                    throw CLIError.badArgument("--release-key \(file) is a file name: pass the key text, e.g. --release-key \"$(cat \(file))\"").exit()
                }
                throw CLIError.badArgument("--release-key: \(error)").exit()
            }
        }
        let delivery = MicroAppDelivery(configuration: .init(server: url, root: root, nativeVersion: remote.nativeVersion, releaseTrust: trust))
        do {
            let delivered = try await delivery.load(app: app, user: user) { candidate in
                let source = try String(contentsOf: candidate.bundleFile, encoding: .utf8)
                let probe = try await HostedPage.makeEmpty()
                defer { Task { await probe.close() } }
                try await probe.load(.init(path: candidate.bundleFile.path, source: source,
                                           scriptURL: candidate.bundleFile.absoluteURL.absoluteString))
            }
            Output.error("statehub: \(app) \(delivered.version) from \(serverText): \(delivered.status)")
            return ([delivered.bundleFile.path], Self.deliveryJSON(app: app, delivered.status),
                    [delivered.bundleFile.path: delivered.bundleFile.absoluteURL.absoluteString])
        } catch {
            Output.error("statehub: \(error)")
            throw ExitCode(1)
        }
    }

    static func deliveryJSON(app: String, _ status: DeliveryStatus) -> JSONValue {
        var object = JSONValue.ObjectMembers()
        object["app"] = .string(app)
        object["version"] = .string(status.version)
        switch status {
        case .fresh:
            object["source"] = .string("network")
            object["status"] = .string("fresh")
        case .offline(_, let reason):
            object["source"] = .string("cache")
            object["status"] = .string("offline")
            object["reason"] = .string("\(reason)")
        case .fallback(_, let reason):
            object["source"] = .string("cache")
            object["status"] = .string("fallback")
            object["reason"] = .string("\(reason)")
        }
        return .object(object)
    }
}
