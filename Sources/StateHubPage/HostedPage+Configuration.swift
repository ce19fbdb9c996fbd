import CapabilityBridge
import JSEngine
import Logging
import StateHub
import Trace

extension HostedPage {
    /// One script to evaluate in the page: a classic script (an IIFE bundle), named by
    /// `path` in errors and stacks.
    public struct Bundle: Sendable {
        public var path: String
        public var source: String
        /// Where the bundle's lines came from (its source map), so stops, errors, problems and
        /// traces name the original files and lines (`ScriptLineMap`).
        public var lineMap: ScriptLineMap?
        /// The URL the bundle was delivered from, given to its top level as
        /// `document.currentScript.src` as a browser does, so it finds files beside it with
        /// `new URL('img/logo.png', document.currentScript.src)` (docs/server.md, "Assets").
        /// `nil`: no `document.currentScript`.
        public var scriptURL: String?

        public init(path: String, source: String, lineMap: ScriptLineMap? = nil, scriptURL: String? = nil) {
            self.path = path
            self.source = source
            self.lineMap = lineMap
            self.scriptURL = scriptURL
        }
    }

    /// Everything ``HostedPage/make(_:)`` needs. Every field has a default; the defaults
    /// are what `statehub run` uses.
    public struct Configuration: Sendable {
        /// Names the engine (the page id in traces and errors).
        public var name: String
        /// Scripts evaluated after the runtime, in order.
        public var bundles: [Bundle]
        /// Longest time one turn of JavaScript may run — a script's top level, one action,
        /// one timer callback, each with the microtasks it drains — before it is stopped.
        /// `nil`: no limit.
        public var timeLimit: Duration?
        /// How long `hub.dispatch` waits for an answer when no timeout is given.
        public var dispatchTimeout: Duration
        /// Load the Pinia runtime and sync plugin and attach the hub (`false`: a bare page).
        public var storeRuntime: Bool
        /// Batching of mirrored mutations.
        public var flush: StoreScripts.Flush
        /// Recorder shared by the hub and the bridge, if any.
        public var trace: TraceRecorder?
        /// Messages longer than this are refused by the hub (docs/PROTOCOL.md A.8).
        public var maximumMessageBytes: Int
        /// The bridge host's set-up (URL allowlist, size cap…).
        public var bridge: BridgeConfiguration
        /// The micro-app identity and grants the page gets.
        public var app: MicroApp
        /// The shell bridge calls reach; `nil`: a `HeadlessShell` with no initial data.
        public var shell: (any Shell)?
        public var logger: Logger
        public var onConsole: (@Sendable (ConsoleMessage) -> Void)?
        public var onUnhandledError: (@Sendable (UnhandledError) -> Void)?
        public var onProblem: (@Sendable (HubProblem) -> Void)?
        /// The folder the page's stores are hydrated from as they are created, before the
        /// page's code sees them (docs/pool.md); `nil`: none (set one later with
        /// ``HostedPage/hydrateStores(from:)``).
        public var snapshots: StoreSnapshotFolder?
        /// Called from another thread when one turn of the page runs past twice `timeLimit`
        /// without being stopped (`JavaScriptEngine.Configuration.onUnresponsive`).
        public var onUnresponsive: (@Sendable (EngineActivity.Snapshot) -> Void)?
        /// A hub to attach the page to, shared with other pages; `nil`: a hub of the page's
        /// own. Pages whose stores take part in one transaction must share a hub
        /// (docs/transactions.md), and each needs its own ``name`` there. With a shared hub,
        /// ``dispatchTimeout``, ``trace`` (for the hub), ``maximumMessageBytes`` and
        /// ``onProblem`` are the hub's own configuration, not these; closing the page detaches
        /// it from the hub and leaves the hub running.
        public var hub: GlobalStateHub?
        /// How long a dispatch spins on its caller's thread for the answer before parking
        /// (`GlobalStateHub.Configuration.dispatchSpin`, docs/hub.md); `.zero`: park at once.
        /// With a shared ``hub``, the hub's own setting counts.
        public var dispatchSpin: Duration = .microseconds(50)
        /// How long the page's thread looks for work before it sleeps
        /// (`JavaScriptEngine.Configuration.idleSpin`); `.zero`: sleep at once.
        public var idleSpin: Duration = .microseconds(50)

        public init(
            name: String = "main",
            bundles: [Bundle] = [],
            timeLimit: Duration? = .seconds(10),
            dispatchTimeout: Duration = .seconds(30),
            storeRuntime: Bool = true,
            flush: StoreScripts.Flush = .tick,
            trace: TraceRecorder? = nil,
            maximumMessageBytes: Int = 8 << 20,
            bridge: BridgeConfiguration = BridgeConfiguration(),
            app: MicroApp = MicroApp(id: "main", grants: .framework()),
            shell: (any Shell)? = nil,
            logger: Logger = Logger(label: "statehub.page", factory: { _ in SwiftLogNoOpLogHandler() }),
            onConsole: (@Sendable (ConsoleMessage) -> Void)? = nil,
            onUnhandledError: (@Sendable (UnhandledError) -> Void)? = nil,
            onProblem: (@Sendable (HubProblem) -> Void)? = nil,
            onUnresponsive: (@Sendable (EngineActivity.Snapshot) -> Void)? = nil,
            snapshots: StoreSnapshotFolder? = nil,
            hub: GlobalStateHub? = nil
        ) {
            self.hub = hub
            self.snapshots = snapshots
            self.onUnresponsive = onUnresponsive
            self.name = name
            self.bundles = bundles
            self.timeLimit = timeLimit
            self.dispatchTimeout = dispatchTimeout
            self.storeRuntime = storeRuntime
            self.flush = flush
            self.trace = trace
            self.maximumMessageBytes = maximumMessageBytes
            self.bridge = bridge
            self.app = app
            self.shell = shell
            self.logger = logger
            self.onConsole = onConsole
            self.onUnhandledError = onUnhandledError
            self.onProblem = onProblem
        }
    }
}
