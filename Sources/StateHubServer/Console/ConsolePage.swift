import Hummingbird
import JSSources
import NIOCore

/// The console's files (js/console/, embedded through JSSources) as `GET /console` serves them
/// (docs/console.md, "How it is served"). Built once when the routes are added: `index.html`
/// gets the store runtime's content-hashed path and its integrity value in place of its
/// `{{runtime}}` and `{{runtimeIntegrity}}` placeholders.
struct ConsolePage: Sendable {
    struct File: Sendable {
        let contentType: String
        let bytes: ByteBuffer
    }

    /// The files under `/console/`, by name; the page itself is `index.html`.
    let files: [String: File]

    static let names: [(name: String, contentType: String)] = [
        ("index.html", "text/html; charset=utf-8"),
        ("console.js", "text/javascript; charset=utf-8"),
        ("console.css", "text/css; charset=utf-8"),
    ]

    /// Only this page's own script and styles, never framed: it holds an admin token.
    static let headers: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        .cacheControl: "no-cache",
    ]

    init(runtime: StoreRuntimeAsset) throws {
        var files: [String: File] = [:]
        for entry in Self.names {
            guard var text = JSSources.file("console/\(entry.name)") else {
                throw StorageError("the embedded js/console/\(entry.name) is missing")
            }
            if entry.name == "index.html" {
                text = text.replacingOccurrences(of: "{{runtimeIntegrity}}", with: runtime.integrity)
                    .replacingOccurrences(of: "{{runtime}}", with: runtime.path)
            }
            files[entry.name] = File(contentType: entry.contentType, bytes: ByteBuffer(string: text))
        }
        self.files = files
    }
}
