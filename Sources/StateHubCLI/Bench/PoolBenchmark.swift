import Foundation
import JSEngine
import Logging
import StateHub
import StateHubPage

/// `statehub bench pool`: opening a micro-app from a warm page against a cold start.
///
/// One sample is what a tap costs: take a page, load a 20 KB store bundle, and stop once the
/// hub holds the store's first mirrored state. Warm: `PagePool.take()` from a pool of 2 kept
/// full (the refill is waited for between samples, outside the timing, as taps are not a
/// millisecond apart). Baseline, the same run: `HostedPage.makeEmpty` then the same bundle.
/// Also: a warm take whose store hydrates from a saved snapshot (docs/pool.md).
struct PoolBenchmark {
    var repetitions = 5
    var samples = 40

    /// A store bundle of about 20 KB, shaped like an app's: a catalogue literal, getters, actions.
    static let bundle: String = {
        var products: [String] = []
        for i in 0..<140 {
            products.append("{ id: 'p\(i)', name: 'Product number \(i)', price: \(Double(i) * 1.25 + 0.99), stock: \(i % 17), tags: ['tag\(i % 5)', 'tag\(i % 7)'] }")
        }
        var members: [String] = []
        for i in 0..<32 {
            members.append("""
                    action\(i)(by) {
                      const items = this.products.filter((p) => p.stock > \(i % 5));
                      this.counter += (by || 1) * items.length;
                      this.lastAction = 'action\(i)';
                      return this.counter;
                    },
                """)
        }
        return """
            (function () {
              'use strict';
              const catalogue = [
                \(products.joined(separator: ",\n    "))
              ];
              const useCatalogue = defineStore('catalogue', {
                state: () => ({ products: catalogue.map((p) => ({ ...p })), filter: '', page: 1, counter: 0, lastAction: null, opened: new Date(0) }),
                getters: {
                  visible(state) { return state.products.filter((p) => p.name.includes(state.filter)); },
                  total(state) { return state.products.reduce((sum, p) => sum + p.price * p.stock, 0); },
                },
                actions: {
            \(members.joined(separator: "\n"))
                  setFilter(text) { this.filter = String(text); this.page = 1; },
                },
              });
              globalThis.catalogue = useCatalogue();
            })();
            """
    }()

    static let storeId = "catalogue"

    func run() async throws -> [Figure] {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let template = HostedPage.Configuration(name: "pool", logger: logger)
        let bundle = HostedPage.Bundle(path: "catalogue.js", source: Self.bundle)
        let folder = StoreSnapshotFolder(url: FileManager.default.temporaryDirectory.appendingPathComponent("statehub-bench-pool-\(UUID().uuidString)"), logger: logger)
        defer { try? FileManager.default.removeItem(at: folder.url) }

        var warm: [Double] = []
        var cold: [Double] = []
        var hydrated: [Double] = []
        var unmirroredTimes: [Double] = []
        var emptyTimes: [Double] = []
        var topLevelTimes: [Double] = []
        let empty = HostedPage.Bundle(path: "empty.js", source: "void 0;")
        let unmirrored = HostedPage.Bundle(path: "catalogue-unmirrored.js", source: Self.bundle.replacingOccurrences(
            of: "globalThis.catalogue = useCatalogue();", with: "globalThis.catalogue = useCatalogue(StateHubSync.installed.originalCreatePinia());"))
        let topLevelOnly = HostedPage.Bundle(path: "catalogue-top-level.js", source: Self.bundle.replacingOccurrences(
            of: "globalThis.catalogue = useCatalogue();", with: "globalThis.useCatalogue = useCatalogue;"))
        for _ in 0..<repetitions {
            let pool = PagePool(configuration: .init(page: template, size: 2))
            try await pool.warmUp()
            for index in 0..<samples {
                try await pool.warmUp() // the refill, outside the timing
                let useSnapshot = index % 2 == 1
                let start = ContinuousClock.now
                let page = try await pool.take(snapshots: useSnapshot ? folder : nil)
                try await page.load(bundle)
                guard page.hub.state(of: Self.storeId) != nil else { throw BenchmarkError.mirrorMismatch("no mirror after the bundle loaded") }
                let elapsed = (ContinuousClock.now - start).seconds * 1e6
                if useSnapshot {
                    hydrated.append(elapsed)
                    guard page.hub.state(of: Self.storeId)?["counter"] != .number(0) else { throw BenchmarkError.mirrorMismatch("the snapshot was not applied") }
                } else {
                    warm.append(elapsed)
                    // A saved state for the hydrated samples: a counter moved, so applying it shows.
                    _ = try await page.hub.dispatch(store: Self.storeId, action: "action3", args: [2])
                    try page.hub.state(of: Self.storeId).map { try folder.save(storeId: Self.storeId, state: $0) }
                }
                await page.close()
            }
            // Where the time goes: the same bundle on a warm page whose store is not mirrored (a
            // pinia without the sync plugin), so the difference is the plugin and the hub.
            unmirroredTimes += try await timedTakes(from: pool, loading: unmirrored) { page in
                guard page.hub.state(of: Self.storeId) == nil else { throw BenchmarkError.mirrorMismatch("the unmirrored store was mirrored") }
            }
            // The bundle's own floor: its parse and top level (the 140-object literal, the
            // `defineStore` call) with no store created.
            topLevelTimes += try await timedTakes(from: pool, loading: topLevelOnly) { page in
                guard page.hub.state(of: Self.storeId) == nil else { throw BenchmarkError.mirrorMismatch("a store was created") }
            }
            // The floor: a take and a script that does nothing (two thread hops).
            emptyTimes += try await timedTakes(from: pool, loading: empty) { _ in }
            await pool.close()
            for _ in 0..<max(4, samples / 4) {
                let start = ContinuousClock.now
                let page = try await HostedPage.makeEmpty(template)
                try await page.load(bundle)
                guard page.hub.state(of: Self.storeId) != nil else { throw BenchmarkError.mirrorMismatch("no mirror after the bundle loaded") }
                cold.append((ContinuousClock.now - start).seconds * 1e6)
                await page.close()
            }
        }
        let size = String(format: "%.1f KB", Double(Self.bundle.utf8.count) / 1000)
        return [
            Figure(key: "pool.cold_p50", label: "cold: start a page + load \(size) bundle to first mirror, p50", unit: "µs", higherIsBetter: false, jit: percentile(cold, 0.5)),
            Figure(key: "pool.cold_p90", label: "cold: start a page + load \(size) bundle to first mirror, p90", unit: "µs", higherIsBetter: false, jit: percentile(cold, 0.9), baselineKey: "pool.cold_p50"),
            Figure(key: "pool.take_load_p50", label: "pool: take + load \(size) bundle to first mirror, p50", unit: "µs", higherIsBetter: false, jit: percentile(warm, 0.5), baselineKey: "pool.cold_p50"),
            Figure(key: "pool.take_load_p90", label: "pool: take + load \(size) bundle to first mirror, p90", unit: "µs", higherIsBetter: false, jit: percentile(warm, 0.9), baselineKey: "pool.cold_p50"),
            Figure(key: "pool.take_empty_p50", label: "pool: take + load an empty script, p50", unit: "µs", higherIsBetter: false, jit: percentile(emptyTimes, 0.5), baselineKey: "pool.take_load_p50"),
            Figure(key: "pool.take_top_level_p50", label: "pool: take + the bundle's parse and top level, no store, p50", unit: "µs", higherIsBetter: false, jit: percentile(topLevelTimes, 0.5), baselineKey: "pool.take_load_p50"),
            Figure(key: "pool.take_load_unmirrored_p50", label: "pool: take + load, the store not mirrored (no sync plugin), p50", unit: "µs", higherIsBetter: false, jit: percentile(unmirroredTimes, 0.5), baselineKey: "pool.take_load_p50"),
            Figure(key: "pool.take_load_snapshot_p50", label: "pool: the same, store hydrated from its snapshot, p50", unit: "µs", higherIsBetter: false, jit: percentile(hydrated, 0.5), baselineKey: "pool.take_load_p50"),
            Figure(key: "pool.take_load_snapshot_p90", label: "pool: the same, store hydrated from its snapshot, p90", unit: "µs", higherIsBetter: false, jit: percentile(hydrated, 0.9), baselineKey: "pool.take_load_p50"),
        ]
    }

    /// Times a quarter of `samples` takes from a refilled `pool`, each followed by loading
    /// `bundle`, in µs; `check` reads the page after the timing (it throws on a wrong page).
    private func timedTakes(from pool: PagePool, loading bundle: HostedPage.Bundle,
                            check: (HostedPage) async throws -> Void) async throws -> [Double] {
        var times: [Double] = []
        for _ in 0..<max(4, samples / 4) {
            try await pool.warmUp() // the refill, outside the timing
            let start = ContinuousClock.now
            let page = try await pool.take()
            try await page.load(bundle)
            times.append((ContinuousClock.now - start).seconds * 1e6)
            try await check(page)
            await page.close()
        }
        return times
    }
}
