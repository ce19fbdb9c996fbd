import Foundation
import JSSources
import Mustache

/// The HTML page that loads one micro-app version (docs/server.md, "Loader page"), rendered
/// with swift-mustache.
struct LoaderPage: Sendable {
    private let template: MustacheTemplate
    /// The bridge client, with `</` written `<\/` so it cannot close its `<script>`.
    private let bridgeClient: String
    /// The Pinia-compatible store runtime, loaded before the bundle.
    let runtime: StoreRuntimeAsset

    static let source = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{app}}</title>
        <style id="statehub-theme">
        {{{themeCSS}}}</style>
        {{#hasStylesheet}}<link rel="stylesheet" href="{{stylesheetURL}}" integrity="{{stylesheetIntegrity}}">
        {{/hasStylesheet}}<script>
        {{{bridgeClient}}}
        </script>
        <script src="{{runtimeURL}}" integrity="{{runtimeIntegrity}}"></script>
        </head>
        <body data-app="{{app}}" data-version="{{version}}">
        <div id="app"></div>
        <script src="{{bundleURL}}" integrity="{{bundleIntegrity}}"></script>
        </body>
        </html>

        """

    init() throws {
        template = try MustacheTemplate(string: Self.source)
        bridgeClient = (JSSources.file("bridge/bridge-client.js") ?? "").replacingOccurrences(of: "</", with: "<\\/")
        runtime = try StoreRuntimeAsset()
    }

    /// The page for `version` of `app`. `themeCSS` must come from ThemeCSS (which escapes values).
    func render(app: String, version: StoredVersion, themeCSS: String) -> String {
        var values: [String: Any] = [
            "app": app,
            "version": version.version,
            "themeCSS": themeCSS.replacingOccurrences(of: "</", with: "<\\/"),
            "bridgeClient": bridgeClient,
            "runtimeURL": runtime.path,
            "runtimeIntegrity": runtime.integrity,
            "bundleURL": AssetPaths.bundle(app: app, version: version.version),
            "bundleIntegrity": Self.integrity(version.bundle.sha256),
            "hasStylesheet": version.stylesheet != nil,
        ]
        if let stylesheet = version.stylesheet {
            values["stylesheetURL"] = AssetPaths.stylesheet(app: app, version: version.version)
            values["stylesheetIntegrity"] = Self.integrity(stylesheet.sha256)
        }
        return template.render(values)
    }

    /// Subresource Integrity value of a SHA-256 given in hex.
    static func integrity(_ sha256Hex: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = sha256Hex.startIndex
        while index < sha256Hex.endIndex {
            let next = sha256Hex.index(index, offsetBy: 2, limitedBy: sha256Hex.endIndex) ?? sha256Hex.endIndex
            bytes.append(UInt8(sha256Hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return "sha256-" + Data(bytes).base64EncodedString()
    }
}

/// The URLs of a version's files.
enum AssetPaths {
    static func bundle(app: String, version: String) -> String { "/apps/\(app)/\(version)/bundle.js" }
    static func stylesheet(app: String, version: String) -> String { "/apps/\(app)/\(version)/style.css" }
    static func asset(app: String, version: String, path: String) -> String { "/apps/\(app)/\(version)/\(path)" }
}
