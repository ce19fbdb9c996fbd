import Hummingbird
import JSSources
import NIOCore

/// The console's files (js/console/, and the trace timeline's js/timeline/, embedded through
/// JSSources) as `GET /console` serves them (docs/console.md, "How it is served"). Built once when
/// the routes are added: `index.html` gets the store runtime's content-hashed path and its
/// integrity value in place of its `{{runtime}}` and `{{runtimeIntegrity}}` placeholders, and the
/// largest trace the server reads in place of `{{maxTraceBytes}}`.
struct ConsolePage: Sendable {
    struct File: Sendable {
        let contentType: String
        let bytes: ByteBuffer
    }

    /// The files under `/console/`, by name; the page itself is `index.html`.
    let files: [String: File]

    /// Each file's name under `/console/`, where it is under js/, and its type. The timeline's
    /// script and style are the files `statehub trace view` inlines: served as files here, because
    /// the console's policy runs no inline script.
    static let names: [(name: String, source: String, contentType: String)] = [
        ("index.html", "console/index.html", "text/html; charset=utf-8"),
        ("console.js", "console/console.js", "text/javascript; charset=utf-8"),
        ("console.css", "console/console.css", "text/css; charset=utf-8"),
        ("timeline.js", "timeline/timeline.js", "text/javascript; charset=utf-8"),
        ("timeline.css", "timeline/timeline.css", "text/css; charset=utf-8"),
    ]

    /// Only this page's own script and styles, never framed: it holds an admin token.
    static let headers: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; frame-ancestors 'none'",
        .xContentTypeOptions: "nosniff",
        .cacheControl: "no-cache",
    ]

    init(runtime: StoreRuntimeAsset, maxTraceBytes: Int) throws {
        var files: [String: File] = [:]
        for entry in Self.names {
            guard var text = JSSources.file(entry.source) else {
                throw StorageError("the embedded js/\(entry.source) is missing")
            }
            if entry.name == "index.html" {
                text = text.replacingOccurrences(of: "{{runtimeIntegrity}}", with: runtime.integrity)
                    .replacingOccurrences(of: "{{runtime}}", with: runtime.path)
                    .replacingOccurrences(of: "{{maxTraceBytes}}", with: String(maxTraceBytes))
            }
            files[entry.name] = File(contentType: entry.contentType, bytes: ByteBuffer(string: text))
        }
        self.files = files
    }
}
