import JSSources

/// The JavaScript a page needs for the bridge, in loading order, from the embedded js/ folder.
///
/// In an engine: evaluate `engineScripts` (each as a classic script, `sourceURL` = its
/// path) before the micro-app's own script. In a WKWebView: inject only
/// `bridge/bridge-client.js` (the web view has a real `document` and `location`).
public enum BridgeScripts {
    /// `bridge/page-shim.js`: the minimal `document` / `location` / `<style>` the engine lacks.
    public static let pageShimPath = "bridge/page-shim.js"
    /// `bridge/bridge-client.js`: `invokeNative`, `onNative`, `StateHubBridge.receive`.
    public static let clientPath = "bridge/bridge-client.js"

    /// The paths to load into an engine page, in order: the shim, then the client.
    public static let enginePaths = [pageShimPath, clientPath]

    /// `(path, source)` for ``enginePaths``, in order.
    ///
    /// - Throws: ``BridgeScriptsError/missing(_:)`` when a file is not embedded (a build
    ///   made before the file existed).
    public static func engineScripts() throws(BridgeScriptsError) -> [(path: String, source: String)] {
        try enginePaths.map { path throws(BridgeScriptsError) in
            guard let source = JSSources.file(path) else { throw .missing(path) }
            return (path, source)
        }
    }
}
