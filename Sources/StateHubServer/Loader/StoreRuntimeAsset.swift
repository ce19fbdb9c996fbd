import Foundation
import JSSources
import NIOCore

/// The store runtime a micro-app's page needs in a browser: js/runtime/reactivity.js,
/// js/runtime/pinia.js and js/runtime/activate-pinia.js (an active pinia, as `statehub run`
/// gives a page) as one classic script (docs/server.md, "Loader page"). Served at a path
/// named by its content hash, so it is cached forever and changes name when the runtime does;
/// the loader page includes it with Subresource Integrity before the app's bundle.
struct StoreRuntimeAsset: Sendable {
    static let files = ["runtime/reactivity.js", "runtime/pinia.js", "runtime/activate-pinia.js"]

    let bytes: ByteBuffer
    let sha256: String
    /// `pinia-<first 16 hex digits of the SHA-256>.js`, under `/runtime/`.
    let fileName: String
    var path: String { "/runtime/\(fileName)" }
    var integrity: String { LoaderPage.integrity(sha256) }

    init() throws {
        var text = ""
        for file in Self.files {
            guard let source = JSSources.file(file) else { throw StorageError("the embedded \(file) is missing") }
            text += source + "\n"
        }
        bytes = ByteBuffer(string: text)
        sha256 = ServerStorage.sha256Hex(Data(text.utf8))
        fileName = "pinia-\(sha256.prefix(16)).js"
    }
}
