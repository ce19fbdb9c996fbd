import CapabilityBridge
import JSEngine
import Logging
import StateHub
import Trace

/// A page set up the way `statehub run` sets one up, in one call: a JavaScript engine, a
/// store hub mirroring it, the Pinia runtime and sync plugin, the capability bridge's page
/// shim and client attached to a shell, then your bundles.
///
/// The order matters and is the reason this type exists: the hub must listen before the
/// runtime loads (stores announce themselves once, when created), the bridge scripts must
/// be in the page before the bridge host attaches (it calls into the client), and bundles
/// come last so they find `defineStore`, `getActivePinia`, `invokeNative` and `document`.
///
/// ```swift
/// let page = try await HostedPage.make(HostedPage.Configuration(
///     bundles: [.init(path: "cart.js", source: cartSource)]))
/// let count = try await page.hub.dispatch(store: "cart", action: "add", args: ["A1"])
/// ```
///
/// What the page gets (the environment `run` and `eval` share): web globals
/// (`setTimeout`, `performance`, `crypto`, `URL`, `TextEncoder`…, from the engine), our
/// Pinia runtime (`createPinia`, `defineStore`, `ref`, … with an active Pinia), the sync
/// plugin, `window.webkit.messageHandlers`, a minimal `document` (title and one style
/// sheet) and `invokeNative`.
public final class HostedPage: Sendable {
    public let engine: JavaScriptEngine
    public let hub: GlobalStateHub
    public let bridge: BridgeHost
    /// The shell the bridge host answers with (a `HeadlessShell` unless you gave another).
    public let shell: any Shell
    public let configuration: Configuration
    /// Where stores created in this page are hydrated from (docs/pool.md).
    public let snapshots: SnapshotHydration

    private init(engine: JavaScriptEngine, hub: GlobalStateHub, bridge: BridgeHost, shell: any Shell, configuration: Configuration) {
        self.snapshots = SnapshotHydration(folder: configuration.snapshots)
        self.engine = engine
        self.hub = hub
        self.bridge = bridge
        self.shell = shell
        self.configuration = configuration
    }

    /// Builds the page and evaluates every bundle, in order.
    ///
    /// - Throws: ``HostedPageError/bundle(path:underlying:)`` naming the bundle that threw or
    ///   was stopped (the page is closed then), or the set-up error of the part that failed.
    public static func make(_ configuration: Configuration = Configuration()) async throws -> HostedPage {
        let page = try await makeEmpty(configuration)
        for bundle in configuration.bundles {
            do {
                try await page.load(bundle)
            } catch {
                await page.close()
                throw error
            }
        }
        return page
    }

    /// Builds the page without evaluating ``Configuration/bundles``: load them yourself
    /// with ``load(_:)`` (the CLI does, to report each script's failure by its file).
    public static func makeEmpty(_ configuration: Configuration = Configuration()) async throws -> HostedPage {
        var engineConfiguration = JavaScriptEngine.Configuration(
            name: configuration.name,
            executionTimeLimit: configuration.timeLimit,
            logger: configuration.logger,
            onConsole: configuration.onConsole,
            onUnhandledError: configuration.onUnhandledError,
            onUnresponsive: configuration.onUnresponsive)
        engineConfiguration.idleSpin = configuration.idleSpin
        let engine = try JavaScriptEngine(configuration: engineConfiguration)
        var hubConfiguration = GlobalStateHub.Configuration(
            maximumMessageBytes: configuration.maximumMessageBytes,
            dispatchTimeout: configuration.dispatchTimeout,
            trace: configuration.trace,
            onProblem: configuration.onProblem)
        hubConfiguration.dispatchSpin = configuration.dispatchSpin
        let hub = configuration.hub ?? GlobalStateHub(configuration: hubConfiguration)
        let bridge = BridgeHost(configuration: configuration.bridge, trace: configuration.trace)
        let shell = configuration.shell ?? HeadlessShell()
        let page = HostedPage(engine: engine, hub: hub, bridge: bridge, shell: shell, configuration: configuration)
        var attached = false
        do {
            if configuration.storeRuntime {
                try await hub.attach(engine)
                attached = true
                try await engine.loadStoreRuntime(flush: configuration.flush, maxMessageBytes: configuration.maximumMessageBytes)
                try await engine.installSnapshotHydration(page.snapshots)
            }
            for (path, source) in try BridgeScripts.engineScripts() {
                try await engine.execute(source, sourceURL: path)
            }
            try await bridge.attach(engine, app: configuration.app, shell: shell)
        } catch {
            if attached {
                await page.close()
            } else {
                // Not attached (a page with this name is already on a shared hub): closing the
                // page would detach that other page by its id.
                await engine.close()
            }
            throw HostedPageError.setUp(String(describing: error))
        }
        return page
    }

    /// Evaluates one more classic script in the page.
    ///
    /// - Throws: ``HostedPageError/bundle(path:underlying:)`` wrapping the `JavaScriptError`
    ///   or `EngineError` (a time-limit stop is `EngineError.executionTimeLimitExceeded`).
    public func load(_ bundle: Bundle) async throws(HostedPageError) {
        // `document.currentScript` for the bundle's top level only.
        if let scriptURL = bundle.scriptURL {
            do {
                try await engine.execute(CurrentScript.enter(scriptURL), sourceURL: "statehub:page/current-script.js")
            } catch {
                throw .bundle(path: bundle.path, underlying: error)
            }
        }
        var failure: (any Error)?
        do {
            try await engine.execute(bundle.source, sourceURL: bundle.path, lineMap: bundle.lineMap)
        } catch {
            failure = error
        }
        if bundle.scriptURL != nil {
            // After a stop too; when the engine refuses even this, the bundle's own error is the news.
            try? await engine.execute(CurrentScript.leave, sourceURL: "statehub:page/current-script.js")
        }
        if let failure { throw .bundle(path: bundle.path, underlying: failure) }
    }

    /// Hydrates every store created from now on from `folder`'s snapshots (`nil`: none),
    /// before the page's code sees the store. Call it before loading the bundles that create
    /// the stores; stores that exist already are not touched (docs/pool.md).
    public func hydrateStores(from folder: StoreSnapshotFolder?) {
        snapshots.folder = folder
    }

    /// Writes every mirror of the page's hub to the hydration folder, one file per store,
    /// atomically (docs/pool.md). Does nothing without a folder; a store that fails does not
    /// stop the others (`StoreSnapshotSaveError` lists each).
    public func saveSnapshots() throws(StoreSnapshotSaveError) {
        try snapshots.folder?.save(from: hub)
    }

    /// Detaches the page from the hub and the bridge and closes the engine.
    public func close() async {
        hub.detach(pageID: engine.pageID)
        bridge.detach(pageID: engine.pageID)
        await engine.close()
    }
}
