import Crypto
import Foundation
import MicroAppAssets

/// The on-disk layout (docs/server.md, "Delivery"): `<root>/<app>/<version>/bundle.js`
/// (+ `style.css`, + each asset at its path) and `<root>/<app>/state.json`. Folders are only
/// ever made from a checked app name, a checked semantic version and `AssetPath`s that do not
/// collide.
struct DeliveryDisk: Sendable {
    let root: URL

    func appFolder(_ app: String) -> URL { root.appendingPathComponent(app, isDirectory: true) }
    func versionFolder(_ app: String, _ version: String) -> URL { appFolder(app).appendingPathComponent(version, isDirectory: true) }

    func readState(_ app: String) -> AppDiskState {
        let url = appFolder(app).appendingPathComponent("state.json")
        guard let data = try? Data(contentsOf: url), let state = try? JSONDecoder().decode(AppDiskState.self, from: data) else {
            return AppDiskState()
        }
        return state
    }

    func writeState(_ app: String, _ state: AppDiskState) throws(DeliveryProblem) {
        do {
            try FileManager.default.createDirectory(at: appFolder(app), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(state).write(to: appFolder(app).appendingPathComponent("state.json"), options: .atomic)
        } catch {
            throw .disk("cannot write state.json: \(error.localizedDescription)")
        }
    }

    static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }

    /// The manifest's asset paths, checked: `nil` when one breaks the rules or two collide
    /// (then no file is named from them).
    static func assetPaths(_ manifest: Manifest) -> [AssetPath]? {
        guard let paths = try? manifest.assets.map({ asset throws(AssetPathError) in try AssetPath(asset.path) }),
              AssetPath.collisions(in: paths).isEmpty else { return nil }
        return paths
    }

    /// Whether the version's files (bundle, stylesheet, every asset) are on disk and match `manifest`.
    func isIntact(_ manifest: Manifest) -> Bool {
        let folder = versionFolder(manifest.app, manifest.version)
        guard let bundle = try? Data(contentsOf: folder.appendingPathComponent("bundle.js")),
              Self.sha256Hex(bundle) == manifest.bundle.sha256 else { return false }
        if let stylesheet = manifest.stylesheet {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent("style.css")),
                  Self.sha256Hex(data) == stylesheet.sha256 else { return false }
        }
        guard let paths = Self.assetPaths(manifest) else { return false }
        for (path, asset) in zip(paths, manifest.assets) {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(path.value)),
                  Self.sha256Hex(data) == asset.sha256 else { return false }
        }
        return true
    }

    /// Writes the files into a temporary folder beside the target, then renames it into place:
    /// a reader sees the whole version or none of it.
    func install(_ manifest: Manifest, bundle: Data, stylesheet: Data?, assets: [(path: AssetPath, data: Data)] = []) throws(DeliveryProblem) {
        let fileManager = FileManager.default
        let target = versionFolder(manifest.app, manifest.version)
        let incoming = appFolder(manifest.app).appendingPathComponent(".incoming-\(UUID().uuidString)", isDirectory: true)
        do {
            try fileManager.createDirectory(at: incoming, withIntermediateDirectories: true)
            try bundle.write(to: incoming.appendingPathComponent("bundle.js"))
            if let stylesheet { try stylesheet.write(to: incoming.appendingPathComponent("style.css")) }
            for asset in assets {
                let file = incoming.appendingPathComponent(asset.path.value)
                try fileManager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try asset.data.write(to: file)
            }
            if fileManager.fileExists(atPath: target.path) {
                // A damaged copy of the same version: move it aside first so the rename lands.
                let aside = appFolder(manifest.app).appendingPathComponent(".old-\(UUID().uuidString)", isDirectory: true)
                try fileManager.moveItem(at: target, to: aside)
                try? fileManager.removeItem(at: aside)
            }
            try fileManager.moveItem(at: incoming, to: target)
        } catch {
            try? fileManager.removeItem(at: incoming)
            throw .disk("cannot install \(manifest.app) \(manifest.version): \(error.localizedDescription)")
        }
    }

    func remove(_ app: String, _ version: String) {
        try? FileManager.default.removeItem(at: versionFolder(app, version))
    }

    func delivered(_ manifest: Manifest, status: DeliveryStatus) -> DeliveredApp {
        let folder = versionFolder(manifest.app, manifest.version)
        let paths = Self.assetPaths(manifest) ?? []
        return DeliveredApp(app: manifest.app, version: manifest.version, bundleFile: folder.appendingPathComponent("bundle.js"),
                            stylesheetFile: manifest.stylesheet.map { _ in folder.appendingPathComponent("style.css") },
                            folder: folder,
                            assetFiles: Dictionary(paths.map { ($0.value, folder.appendingPathComponent($0.value)) },
                                                   uniquingKeysWith: { first, _ in first }),
                            manifest: manifest, status: status)
    }
}
