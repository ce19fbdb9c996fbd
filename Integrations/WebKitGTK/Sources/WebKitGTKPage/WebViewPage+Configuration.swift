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
        /// Print the page's console on standard output, one line per call
        /// (`[page] level: text`), through ``onConsole``'s channel (docs/webview.md, "The console").
        public var consoleToStandardOutput: Bool
        /// Receives every `console.log`/`info`/`warn`/`error`/`debug` call of the page, and its
        /// uncaught errors and unhandled rejections as `error`, on `gtk:main`, in order. WebKitGTK
        /// gives the UI process no console of its own (its `enable-write-console-messages-to-stdout`
        /// printed nothing here): a document-start script forwards it on a message channel of
        /// its own, `statehubConsole`. `nil` (and ``consoleToStandardOutput`` false): no script,
        /// no channel.
        public var onConsole: (@Sendable (ConsoleMessage) -> Void)?
        /// Which other documents the page's frames may load, beside those of ``baseURI``'s origin
        /// and `about:blank`/`about:srcdoc`, which are always allowed (`nil`: none). Any frame of
        /// a page reaches its message channels, so a navigation or a frame to a document this
        /// refuses is ignored, as is every new window (docs/webview.md, "Limits and hostile input").
        /// Called on `gtk:main` with the URI the frame would load.
        public var allowsNavigation: (@Sendable (_ uri: String) -> Bool)?

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
            consoleToStandardOutput: Bool = false,
            onConsole: (@Sendable (ConsoleMessage) -> Void)? = nil,
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
            self.onConsole = onConsole
            self.allowsNavigation = allowsNavigation
        }

        /// Whether the page forwards its console (``onConsole`` or ``consoleToStandardOutput``).
        var forwardsConsole: Bool { consoleToStandardOutput || onConsole != nil }
    }

    /// One line of the page's console (``Configuration/onConsole``).
    public struct ConsoleMessage: Sendable, Equatable, CustomStringConvertible {
        /// `log`, `info`, `warn`, `error` or `debug`; uncaught errors and rejections are `error`.
        public var level: String
        /// The call's arguments as the page wrote them, joined by spaces: strings as they are,
        /// errors as their stack, anything else as JSON (or `String(value)` when it is not JSON).
        public var text: String

        /// A console line.
        public init(level: String, text: String) {
            self.level = level
            self.text = text
        }

        /// `level: text`.
        public var description: String { "\(level): \(text)" }
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
