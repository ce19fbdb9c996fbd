import StateHub

extension WebViewPage {
    /// One classic script of the app (an IIFE bundle), run in the page when its document has
    /// been parsed, after StateHub's scripts, on every load and reload.
    public struct Bundle: Sendable {
        /// The script's name for people reading the configuration. WebKitGTK's user scripts take
        /// no file name (and ignore `//# sourceURL=`), so the page's stacks say `user-script:N`
        /// instead (docs/webview.md, "What differs from the engine").
        public var path: String
        /// The script's text: a classic script, run as it is.
        public var source: String

        /// A bundle named `path` whose text is `source`.
        public init(path: String, source: String) {
            self.path = path
            self.source = source
        }
    }

    /// Everything ``WebViewPage/make(_:)`` needs. Every field has a default; the defaults are
    /// the set-up `statehub run` gives an engine page.
    public struct Configuration: Sendable {
        /// The page id (``WebViewPage/pageID``) in traces, errors and the hub's and the bridge's
        /// books: unique among the pages attached to one hub or one `BridgeHost` (a second page
        /// named `main`, the default, fails `hub.attach` with "a page with id main is already
        /// attached").
        public var name: String
        /// Inject the Pinia runtime, the sync plugin and chunking (`false`: a page on real
        /// Pinia injects them itself; docs/webview.md, "What is injected").
        public var storeRuntime: Bool
        /// Batching of mirrored mutations.
        public var flush: StoreScripts.Flush
        /// The hub's cap: the plugin sends larger messages in chunks (docs/PROTOCOL.md A.11).
        public var maximumMessageBytes: Int
        /// Inject the bridge's page shim and client (`invokeNative`, `StateHubPage`).
        public var bridgeScripts: Bool
        /// The app's scripts, in order, at document end.
        public var bundles: [Bundle]
        /// The document loaded by ``WebViewPage/load()``.
        public var html: String
        /// The document's base URI; `nil`: `about:blank`.
        public var baseURI: String?
        /// Turn on WebKit's `enable-write-console-messages-to-stdout`. On the machine this was
        /// checked on (Debian's WebKitGTK 2.50.6, no systemd journal) nothing reached standard
        /// output or standard error, `console.log` and uncaught errors alike: WebKitGTK logs
        /// through the systemd journal where one runs (docs/webview.md, "No console hook").
        public var consoleToStandardOutput: Bool

        /// A configuration; every default is the set-up `statehub run` gives an engine page, with
        /// an empty HTML5 document at `about:blank`.
        public init(
            name: String = "main",
            storeRuntime: Bool = true,
            flush: StoreScripts.Flush = .tick,
            maximumMessageBytes: Int = 8 << 20,
            bridgeScripts: Bool = true,
            bundles: [Bundle] = [],
            html: String = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body></body></html>",
            baseURI: String? = nil,
            consoleToStandardOutput: Bool = false
        ) {
            self.name = name
            self.storeRuntime = storeRuntime
            self.flush = flush
            self.maximumMessageBytes = maximumMessageBytes
            self.bridgeScripts = bridgeScripts
            self.bundles = bundles
            self.html = html
            self.baseURI = baseURI
            self.consoleToStandardOutput = consoleToStandardOutput
        }
    }

    /// Why a page went away.
    public enum CloseReason: String, Sendable, Equatable, CustomStringConvertible {
        /// ``WebViewPage/close()`` was called.
        case closed
        /// The web process crashed or was killed.
        case webProcessCrashed = "web process crashed"
        /// WebKit ended the web process for using too much memory.
        case webProcessExceededMemoryLimit = "web process exceeded its memory limit"
        /// The web process was ended through WebKit's API (`webkit_web_view_terminate_web_process`).
        case webProcessTerminated = "web process terminated"

        /// The reason in words, as errors print it.
        public var description: String { rawValue }
    }
}
