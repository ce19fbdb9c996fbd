import StateHub

extension WebViewPage {
    /// One classic script of the app (an IIFE bundle), run in the page when its document has
    /// been parsed, after StateHub's scripts, on every load and reload.
    public struct Bundle: Sendable {
        /// Names the script in the page's errors and stacks.
        public var path: String
        public var source: String

        public init(path: String, source: String) {
            self.path = path
            self.source = source
        }
    }

    /// Everything ``WebViewPage/make(_:)`` needs. Every field has a default; the defaults are
    /// the set-up `statehub run` gives an engine page.
    public struct Configuration: Sendable {
        /// The page id in traces and errors.
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
        /// Copy the page's console to standard output (WebKit's
        /// `enable-write-console-messages-to-stdout`; WebKitGTK gives the UI process no other way to see it).
        public var consoleToStandardOutput: Bool
        /// Which other documents the page's frames may load, beside those of ``baseURI``'s origin
        /// and `about:blank`/`about:srcdoc`, which are always allowed (`nil`: none). Any frame of
        /// a page reaches its message channels, so a navigation or a frame to a document this
        /// refuses is ignored, as is every new window (docs/webview.md, "Limits and hostile input").
        /// Called on `gtk:main` with the URI the frame would load.
        public var allowsNavigation: (@Sendable (_ uri: String) -> Bool)?

        public init(
            name: String = "main",
            storeRuntime: Bool = true,
            flush: StoreScripts.Flush = .tick,
            maximumMessageBytes: Int = 8 << 20,
            bridgeScripts: Bool = true,
            bundles: [Bundle] = [],
            html: String = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body></body></html>",
            baseURI: String? = nil,
            consoleToStandardOutput: Bool = false,
            allowsNavigation: (@Sendable (_ uri: String) -> Bool)? = nil
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
            self.allowsNavigation = allowsNavigation
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

        public var description: String { rawValue }
    }
}
