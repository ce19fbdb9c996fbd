import StateHub

/// Keeps up to ``Configuration-swift.struct/size`` pages warm — engine started, hub attached,
/// Pinia runtime, sync plugin and bridge client loaded — so opening a micro-app costs only its
/// bundle (docs/pool.md).
///
/// ```swift
/// let pool = PagePool(configuration: .init(page: HostedPage.Configuration(name: "cart"), size: 2))
/// try await pool.warmUp()
/// let page = try await pool.take(snapshots: folder)
/// try await page.load(.init(path: "cart.js", source: cartBundle))
/// ```
///
/// - Warm-up: ``warmUp()`` builds pages until `size` are ready; a pool never warmed fills
///   itself after the first ``take(snapshots:)``.
/// - Refill: a take that leaves fewer than `size` warm starts one background task (at most one
///   at a time, `.utility` priority) that builds pages until `size` are warm again.
/// - Taken empty: ``take(snapshots:)`` builds a page itself (a cold start, counted in
///   ``PagePoolStatistics/cold``); ``tryTake(snapshots:)`` returns `nil` instead.
/// - A taken page is the caller's to close; ``close()`` closes the warm ones.
public actor PagePool {
    /// What the pool builds and how many it keeps warm.
    public struct Configuration: Sendable {
        /// The template of every page: `name` gets a counter (`cart-1`, `cart-2`…); `bundles`
        /// are ignored (a page runs what its taker loads).
        public var page: HostedPage.Configuration
        /// Pages kept warm (at least 1).
        public var size: Int
        /// How long after a take the refill starts: an engine start competes for the CPU with
        /// the bundle the taker loads next (docs/pool.md, "Refill").
        public var refillDelay: Duration

        public init(page: HostedPage.Configuration = HostedPage.Configuration(), size: Int = 2, refillDelay: Duration = .milliseconds(100)) {
            self.page = page
            self.size = max(1, size)
            self.refillDelay = refillDelay
        }
    }

    public let configuration: Configuration
    /// Counts of takes and builds, and the last refill failure.
    public private(set) var statistics = PagePoolStatistics()
    private var warm: [HostedPage] = []
    private var refill: Task<Void, Never>?
    private var built = 0
    private var closed = false
    /// The error that stopped the last refill, rethrown as it is by `warmUp()`.
    private var lastRefillFailure: (any Error)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Pages ready to be taken now.
    public var warmCount: Int { warm.count }

    /// Builds pages until `size` are warm, and returns when they are.
    ///
    /// - Throws: the set-up error of a page that could not be built (``HostedPageError``),
    ///   or ``PagePoolError/closed``.
    public func warmUp() async throws {
        guard !closed else { throw PagePoolError.closed }
        startRefill(after: .zero)
        await refill?.value
        if warm.count < configuration.size {
            if closed { throw PagePoolError.closed }
            throw lastRefillFailure ?? HostedPageError.setUp("the pool could not fill itself")
        }
    }

    /// A warm page, or a page built now when none is warm (a cold start); either way a
    /// replacement is built in the background.
    ///
    /// - Parameter snapshots: the folder the page's stores hydrate from (docs/pool.md);
    ///   `nil` keeps the template's ``HostedPage/Configuration/snapshots``.
    /// - Throws: ``PagePoolError/closed``, or the set-up error of a cold start.
    public func take(snapshots: StoreSnapshotFolder? = nil) async throws -> HostedPage {
        if let page = try tryTake(snapshots: snapshots) { return page }
        statistics.cold += 1
        let page = try await build()
        if closed {
            await page.close()
            throw PagePoolError.closed
        }
        if let snapshots { page.hydrateStores(from: snapshots) }
        return page
    }

    /// A warm page, or `nil` when none is ready; a replacement is built in the background.
    ///
    /// - Throws: ``PagePoolError/closed``.
    public func tryTake(snapshots: StoreSnapshotFolder? = nil) throws -> HostedPage? {
        guard !closed else { throw PagePoolError.closed }
        defer { startRefill(after: configuration.refillDelay) }
        guard !warm.isEmpty else { return nil }
        let page = warm.removeFirst()
        statistics.warm += 1
        if let snapshots { page.hydrateStores(from: snapshots) }
        return page
    }

    /// Stops the refill and closes every warm page. Taken pages stay open (they are their
    /// takers'); later takes throw ``PagePoolError/closed``.
    public func close() async {
        closed = true
        refill?.cancel()
        await refill?.value
        let pages = warm
        warm.removeAll()
        for page in pages { await page.close() }
    }

    private func startRefill(after delay: Duration) {
        guard !closed, refill == nil, warm.count < configuration.size else { return }
        refill = Task(priority: .utility) { await self.fill(after: delay) }
    }

    private func fill(after delay: Duration) async {
        defer { refill = nil }
        // Cancelled by close(); warmUp() waits for the delay too (it only ever asks for none).
        if delay > .zero { try? await Task.sleep(for: delay) }
        while !closed, !Task.isCancelled, warm.count < configuration.size {
            do {
                let page = try await build()
                if closed {
                    await page.close()
                    return
                }
                warm.append(page)
                statistics.lastRefillError = nil
                lastRefillFailure = nil
            } catch {
                statistics.lastRefillError = String(describing: error)
                lastRefillFailure = error
                return
            }
        }
    }

    private func build() async throws -> HostedPage {
        built += 1
        statistics.built += 1
        var page = configuration.page
        page.name = "\(configuration.page.name)-\(built)"
        page.bundles = []
        let hosted = try await HostedPage.makeEmpty(page)
        if page.storeRuntime {
            do {
                try await hosted.engine.execute(Self.warmUpScript, sourceURL: "statehub:pool/warm-up.js")
            } catch {
                await hosted.close()
                throw HostedPageError.setUp("the pool's warm-up store failed: \(error)")
            }
        }
        return hosted
    }

    /// Runs a throwaway store through the runtime and the sync plugin a few times, disposing of
    /// it each time: JavaScriptCore compiles a function when it first runs and again, with the
    /// JIT, once it is hot, so without this the taker's first store pays for compiling
    /// `defineStore`, the reactivity and the plugin's encoder (`bench pool`: the first stores of
    /// a fresh engine took 2–11 ms, later ones 0.3–0.5 ms). The hub sees the stores come and go
    /// (docs/pool.md, "Warm-up").
    static let warmUpScript = """
        (() => {
          const id = 'statehub:pool-warm-up';
          const rows = Array.from({ length: 60 }, (_, i) => ({ id: 'r' + i, name: 'row ' + i, price: i * 1.5, tags: ['a', 'b'] }));
          // Many actions: the plugin reads each one's parameter names at creation (PROTOCOL.md A.5.1).
          const actions = {
            add(n) { this.list.push({ id: 'n' + n, name: String(n), price: n, tags: [] }); this.map.set('k' + n, n); this.count++; return this.size; },
            async later(a, b = 2, ...rest) { await null; this.count += a + b + rest.length; },
            login({ user, password }) { this.none = { user: String(user), pin: password ? 1 : 0 }; },
          };
          for (let i = 0; i < 16; i++) actions['step' + i] = function (by, note) { this.count += (by || 1) + i; return note; };
          for (let round = 0; round < 6; round++) {
            const useWarmUp = defineStore(id, {
              state: () => ({ list: rows.map((r) => ({ ...r })), at: new Date(0), map: new Map([['k', 1]]), set: new Set([1]), none: null, count: 0 }),
              getters: { size(state) { return state.list.length; } },
              actions,
            });
            const store = useWarmUp();
            // The path a snapshot takes (decode, one $patch replacing the state), as a native hydration.
            StateHubSync.dispatch(JSON.stringify({ v: 1, storeId: id, messageId: 'statehub:pool-warm-up-' + round, type: 'sync_state',
              payload: { state: { list: rows, at: { $type: 'Date', value: '1970-01-02T00:00:00.000Z' }, map: { $type: 'Map', entries: [['k', 2]] }, set: { $type: 'Set', values: [2] }, none: null, count: round } } }));
            store.add(round);
            store.$patch((state) => { state.list.splice(0, 1); state.none = { a: round }; });
            store.$patch({ none: null });
            StateHubSync.flushPending();
            store.$dispose();
            const pinia = getActivePinia();
            if (pinia && pinia.state && pinia.state.value) delete pinia.state.value[id];
          }
        })();
        """
}
