import Foundation
import NIOCore

/// The manifest body (docs/server.md, "Manifest"), written directly: it is the hottest
/// route, and every value but the variant label is already restricted to URL-safe characters.
enum ManifestJSON {
    static func encode(app: String, choice: ManifestChoice, version: StoredVersion) -> ByteBuffer {
        var text = #"{"app":""# + app + #"","version":""# + version.version
        text += #"","reason":""# + choice.reason.rawValue + #"","variant":"#
        text += choice.variant.map(quoted) ?? "null"
        text += #","bucket":"# + String(choice.bucket)
        text += #","bundle":"# + asset(AssetPaths.bundle(app: app, version: version.version), version.bundle)
        text += #","stylesheet":"#
        text += version.stylesheet.map { asset(AssetPaths.stylesheet(app: app, version: version.version), $0) } ?? "null"
        // Paths are `AssetPath`s ([A-Za-z0-9._-] and /): safe in a URL and a JSON string as they are.
        text += #","assets":["#
        for (index, file) in version.assets.enumerated() {
            if index > 0 { text += "," }
            text += #"{"path":""# + file.path + #"","#
            text += asset(AssetPaths.asset(app: app, version: version.version, path: file.path), file.ref).dropFirst()
        }
        text += "]"
        text += #","minNativeVersion":""# + version.minNativeVersion + #"""#
        // Hex and base64 (checked on upload): safe in a JSON string as they are.
        text += #","signature":"#
        text += version.signature.map { #"{"keyId":""# + $0.keyId + #"","value":""# + $0.value + #""}"# } ?? "null"
        text += "}"
        return ByteBuffer(string: text)
    }

    private static func asset(_ url: String, _ ref: AssetRef) -> String {
        #"{"url":""# + url + #"","sha256":""# + ref.sha256 + #"","size":"# + String(ref.size) + "}"
    }

    static func quoted(_ text: String) -> String {
        (try? String(decoding: JSONEncoder().encode(text), as: UTF8.self)) ?? "null"
    }
}
