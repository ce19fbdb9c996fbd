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

    /// One file of a version, as ``install(_:files:)`` writes it.
    struct IncomingFile: Sendable {
        enum Source: Sendable {
            /// Downloaded and verified.
            case data(Data)
            /// A file of an installed version, verified against the digest just before.
            case existing(URL)
        }
        /// Relative to the version's folder: `bundle.js`, `style.css` or an asset's checked path.
        var path: String
        var source: Source
    }

    /// Every file of `manifest` (bundle, stylesheet, assets) with its relative path and
    /// expected digest, in that order; `nil` when an asset path breaks the rules.
    static func files(of manifest: Manifest) -> [(path: String, asset: Manifest.Asset)]? {
        guard let paths = assetPaths(manifest) else { return nil }
        var files = [("bundle.js", manifest.bundle)]
        if let stylesheet = manifest.stylesheet { files.append(("style.css", stylesheet)) }
        for (path, asset) in zip(paths, manifest.assets) {
            files.append((path.value, Manifest.Asset(url: asset.url, sha256: asset.sha256, size: asset.size)))
        }
        return files
    }

    /// A file of an installed version (`manifests`: version → manifest) with this digest and
    /// size, read back and hashed now (a damaged copy is not reused), or `nil`.
    func reusable(_ asset: Manifest.Asset, app: String, manifests: [String: Manifest]) -> URL? {
        for (version, manifest) in manifests.sorted(by: { $0.key > $1.key }) {
            for file in Self.files(of: manifest) ?? [] where file.asset.sha256 == asset.sha256 && file.asset.size == asset.size {
                let url = versionFolder(app, version).appendingPathComponent(file.path)
                guard let data = try? Data(contentsOf: url), data.count == asset.size, Self.sha256Hex(data) == asset.sha256 else { continue }
                return url
            }
        }
        return nil
    }

    /// Writes the files into a temporary folder beside the target, then renames it into place:
    /// a reader sees the whole version or none of it. A reused file is hard-linked (a link
    /// appears whole or not at all), or copied where links are refused (another volume).
    func install(_ manifest: Manifest, files: [IncomingFile]) throws(DeliveryProblem) {
        let fileManager = FileManager.default
        let target = versionFolder(manifest.app, manifest.version)
        let incoming = appFolder(manifest.app).appendingPathComponent(".incoming-\(UUID().uuidString)", isDirectory: true)
        do {
            try fileManager.createDirectory(at: incoming, withIntermediateDirectories: true)
            for incomingFile in files {
                let file = incoming.appendingPathComponent(incomingFile.path)
                try fileManager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                switch incomingFile.source {
                case .data(let data):
                    try data.write(to: file)
                case .existing(let source):
                    do { try fileManager.linkItem(at: source, to: file) } catch { try fileManager.copyItem(at: source, to: file) }
                }
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
