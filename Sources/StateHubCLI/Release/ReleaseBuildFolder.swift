import Delivery
import Foundation
import StateHubJSON

/// A build folder as `statehub release` reads it (docs/server.md, "Signed releases"):
/// `bundle.js`, optionally `style.css`, and every other regular file an asset at its path,
/// except hidden ones (`.DS_Store`, `.git/`: any path part starting with `.`).
struct ReleaseBuildFolder {
    struct Asset {
        var path: String
        var data: Data
    }

    var bundle: String
    var stylesheet: String?
    var assets: [Asset]
    /// The hidden files and folders left out, sorted: a folder once, ending in `/`, nothing inside it read.
    var hidden: [String]

    /// Reads `folder`. A symbolic link, a bundle or stylesheet that is not UTF-8, or a missing
    /// bundle is refused by name: what is signed must be what the server stores byte for byte.
    init(_ folder: URL) throws(CLIError) {
        let root = folder.standardizedFileURL
        let bundleFile = root.appendingPathComponent("bundle.js")
        guard let bundle = try Self.text(bundleFile, required: true) else { throw .unreadableFile(path: bundleFile.path, reason: "no such file") }
        self.bundle = bundle
        stylesheet = try Self.text(root.appendingPathComponent("style.css"), required: false)
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey]
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys, options: []) else {
            throw .unreadableFile(path: root.path, reason: "not a folder")
        }
        var assets: [Asset] = []
        var hidden: [String] = []
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let file as URL in walk {
            let values = try? file.resourceValues(forKeys: Set(keys))
            let path = String(file.standardizedFileURL.path.dropFirst(prefix.count))
            // Editor, OS and version-control files are never part of a build: no asset path may name them.
            if file.lastPathComponent.hasPrefix(".") {
                if values?.isDirectory == true {
                    walk.skipDescendants()
                    hidden.append(path + "/")
                } else {
                    hidden.append(path)
                }
                continue
            }
            if values?.isSymbolicLink == true { throw .badArgument("\(root.path): \(path) is a symbolic link; a build folder holds files") }
            guard values?.isRegularFile == true, path != "bundle.js", path != "style.css" else { continue }
            do {
                assets.append(Asset(path: path, data: try Data(contentsOf: file)))
            } catch {
                throw .unreadableFile(path: file.path, reason: error.localizedDescription)
            }
        }
        self.assets = assets.sorted { Array($0.path.utf8).lexicographicallyPrecedes($1.path.utf8) }
        self.hidden = hidden.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }
    }

    /// The one line that says what ``hidden`` left out, naming the first few; `nil` when nothing was.
    var hiddenNote: String? {
        guard !hidden.isEmpty else { return nil }
        let named = hidden.prefix(Self.hiddenNamed).joined(separator: ", ")
        let more = hidden.count > Self.hiddenNamed ? " and \(hidden.count - Self.hiddenNamed) more" : ""
        return "left out \(hidden.count) hidden \(hidden.count == 1 ? "entry" : "entries") (a name starting with \".\"): \(named)\(more)"
    }

    /// How many hidden entries ``hiddenNote`` names.
    static let hiddenNamed = 5

    /// The statement the device will rebuild from the manifest of this upload.
    func statement(app: String, version: String, minNativeVersion: String) throws(ReleaseSigningError) -> ReleaseStatement {
        try ReleaseStatement(app: app, version: version, minNativeVersion: minNativeVersion,
                             bundle: ReleaseStatement.Digest(of: Data(bundle.utf8)),
                             stylesheet: stylesheet.map { ReleaseStatement.Digest(of: Data($0.utf8)) },
                             assets: assets.map { (path: $0.path, digest: ReleaseStatement.Digest(of: $0.data)) })
    }

    /// The version upload body (docs/server.md, "Admin API"), signature included.
    func uploadBody(minNativeVersion: String, signature: ReleaseSignature) -> String {
        var body: JSONValue.ObjectMembers = ["bundle": .string(bundle), "minNativeVersion": .string(minNativeVersion)]
        if let stylesheet { body["stylesheet"] = .string(stylesheet) }
        body["assets"] = .array(assets.map { ["path": .string($0.path), "data": .string($0.data.base64EncodedString())] })
        body["signature"] = ["keyId": .string(signature.keyID), "value": .string(signature.value)]
        return JSONValue.object(body).jsonText()
    }

    private static func text(_ file: URL, required: Bool) throws(CLIError) -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableFile(path: file.path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .badArgument("\(file.path) is not UTF-8; the server stores bundles and stylesheets as UTF-8 text")
        }
        return text
    }
}
