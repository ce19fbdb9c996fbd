import Foundation
import JSEngine
import Logging
import StateHub
import Synchronization

/// `statehub bench hub`: the store hub against the raw engine and against the naive way.
///
/// The naive way is what hand-rolled bridges do: post the whole state as JSON on every
/// mutation and parse it all natively, and reach JavaScript by evaluating source text.
struct HubBenchmark {
    var repetitions = 5
    var writes = 100_000

    /// A realistic cart: 200 items, about 25 KB of JSON.
    static let storeSource = storeSource(getters: false)

    /// The cart, with two getters when `getters` is true: one that each write of `n` changes, so
    /// every mirrored write carries it (docs/PROTOCOL.md A.13), and one that none changes.
    static func storeSource(getters: Bool) -> String {
        """
        globalThis.benchStore = defineStore('bench', {
          state: () => ({ n: 0, items: Array.from({ length: 200 }, (_, i) => ({ id: 'p' + i, name: 'Product ' + i, price: i * 1.25, qty: 1, tags: ['a', 'b'] })) }),
          \(getters ? "getters: { double: (state) => state.n * 2, count: (state) => state.items.length }," : "")
          actions: { inc(by) { this.n += by; return this.n; } },
        })();
        """
    }

    func run() async throws -> [Figure] {
        var syncRates: [Double] = []
        var unmirroredRates: [Double] = []
        var bareSubscriberRates: [Double] = []
        var batchedRates: [Double] = []
        var naiveRates: [Double] = []
        var roundTrips: [Double] = []
        var naiveRoundTrips: [Double] = []
        var bigSyncs: [Double] = []
        var p99s: [Double] = []
        var nativeApply: [Double] = []
        var genericApply: [Double] = []
        var postedApply: [Double] = []
        var gettersSyncRates: [Double] = []
        var gettersBatchedRates: [Double] = []
        var gettersUnmirroredRates: [Double] = []
        var gettersNativeApply: [Double] = []
        var gettersPostedApply: [Double] = []
        var pageRoundTrips: [Double] = []
        var pageP99s: [Double] = []
        for _ in 0..<repetitions {
            nativeApply.append(try await nativeApplyMicroseconds(messages: 200_000))
            genericApply.append(try await nativeApplyMicroseconds(messages: 200_000, shape: .generic))
            postedApply.append(try await nativeApplyMicroseconds(messages: 200_000, asPosted: true))
            syncRates.append(try await mirroredWritesPerSecond(flush: .sync, writes: writes))
            unmirroredRates.append(try await unmirroredWritesPerSecond(writes: writes))
            gettersNativeApply.append(try await nativeApplyMicroseconds(messages: 200_000, getters: true))
            gettersPostedApply.append(try await nativeApplyMicroseconds(messages: 200_000, asPosted: true, getters: true))
            gettersSyncRates.append(try await mirroredWritesPerSecond(flush: .sync, writes: writes, getters: true))
            gettersUnmirroredRates.append(try await unmirroredWritesPerSecond(writes: writes, getters: true))
            gettersBatchedRates.append(try await mirroredWritesPerSecond(flush: .tick, writes: writes * 5, getters: true))
            bareSubscriberRates.append(try await bareSubscriberWritesPerSecond(writes: writes))
            batchedRates.append(try await mirroredWritesPerSecond(flush: .tick, writes: writes * 5))
            naiveRates.append(try await naiveWritesPerSecond(writes: writes / 20))
            let (p50, p99) = try await roundTripMicroseconds(count: 2_000)
            roundTrips.append(p50)
            p99s.append(p99)
            let (pageP50, pageP99) = try await roundTripMicroseconds(count: 2_000, onPageExecutor: true)
            pageRoundTrips.append(pageP50)
            pageP99s.append(pageP99)
            naiveRoundTrips.append(try await naiveRoundTripMicroseconds(count: 500))
            bigSyncs.append(try await megabyteSyncMilliseconds())
        }
        return [
            Figure(key: "hub.sync_writes", label: "mirrored writes/s, flush sync", unit: "ops/s", higherIsBetter: true, jit: median(syncRates), baselineKey: "engine.js_to_native"),
            // The runtime's share of a flush-sync write: the same loop on a store without the sync
            // plugin. Below 40% of engine.js_to_native, no plugin or hub work can meet the
            // flush-sync target (docs/benchmarks.md).
            Figure(key: "hub.unmirrored_writes", label: "store writes/s, not mirrored (no sync plugin)", unit: "ops/s", higherIsBetter: true, jit: median(unmirroredRates), baselineKey: "engine.js_to_native"),
            // The floor of a flush-sync write with today's wire text: the runtime's write, a sync
            // subscriber that only writes the one-set message, the crossing and the hub. What
            // hub.sync_writes costs past it is the sync plugin's own work.
            Figure(key: "hub.bare_subscriber_writes", label: "floor: store write + bare subscriber posting the one-set text", unit: "ops/s", higherIsBetter: true, jit: median(bareSubscriberRates), baselineKey: "engine.js_to_native"),
            Figure(key: "hub.batched_writes", label: "mirrored writes/s, batched per tick", unit: "ops/s", higherIsBetter: true, jit: median(batchedRates), baselineKey: "engine.js_to_native"),
            // The same rates against the C API's floor of a JS→native call, same run.
            Figure(key: "hub.sync_writes_floor", label: "mirrored writes/s, flush sync (vs the C floor)", unit: "ops/s", higherIsBetter: true, jit: median(syncRates), baselineKey: "engine.raw_js_to_native"),
            Figure(key: "hub.naive_writes", label: "naive: full state JSON per write", unit: "ops/s", higherIsBetter: true, jit: median(naiveRates), baselineKey: "engine.js_to_native"),
            Figure(key: "hub.round_trip_p50", label: "action round trip native→JS→mirror, p50", unit: "µs", higherIsBetter: false, jit: median(roundTrips), baselineKey: "engine.native_to_js_us"),
            Figure(key: "hub.round_trip_p99", label: "action round trip, p99", unit: "µs", higherIsBetter: false, jit: median(p99s), baselineKey: "engine.native_to_js_us"),
            Figure(key: "hub.page_round_trip_p50", label: "round trip, caller on the page's executor, p50", unit: "µs", higherIsBetter: false, jit: median(pageRoundTrips), baselineKey: "engine.native_to_js_us"),
            Figure(key: "hub.page_round_trip_p99", label: "round trip, caller on the page's executor, p99", unit: "µs", higherIsBetter: false, jit: median(pageP99s), baselineKey: "engine.native_to_js_us"),
            Figure(key: "hub.naive_round_trip", label: "naive round trip (evaluate source, full state back)", unit: "µs", higherIsBetter: false, jit: median(naiveRoundTrips), baselineKey: "engine.native_to_js_us"),
            Figure(key: "hub.native_apply", label: "hub alone: parse + apply one apply_mutation", unit: "µs", higherIsBetter: false, jit: median(nativeApply), baselineKey: "engine.native_to_js_us"),
            // The key matcher's worth: the same messages with `payload` before `type`,
            // which it hands to the generic parser; the ratio is generic / key matcher.
            Figure(key: "hub.native_apply_generic", label: "hub alone, generic parser (payload before type)", unit: "µs", higherIsBetter: false, jit: median(genericApply), baselineKey: "hub.native_apply"),
            // What a page's `postMessage` reaches: the receiver `attach` installs, the message's bytes.
            Figure(key: "hub.native_apply_posted", label: "hub alone, as posted (bytes, the engine's entry)", unit: "µs", higherIsBetter: false, jit: median(postedApply), baselineKey: "hub.native_apply"),
            Figure(key: "hub.sync_1mb", label: "sync a 1 MB state to the mirror", unit: "ms", higherIsBetter: false, jit: median(bigSyncs)),
            // The same writes on a store with getters, one of which each write changes: what carrying
            // it costs, as a ratio to the store without getters in the same run.
            Figure(key: "hub.sync_writes_getters", label: "mirrored writes/s, flush sync, a getter changed by each", unit: "ops/s", higherIsBetter: true, jit: median(gettersSyncRates), baselineKey: "hub.sync_writes"),
            Figure(key: "hub.batched_writes_getters", label: "mirrored writes/s, batched, a getter changed by each", unit: "ops/s", higherIsBetter: true, jit: median(gettersBatchedRates), baselineKey: "hub.batched_writes"),
            Figure(key: "hub.unmirrored_writes_getters", label: "store writes/s, not mirrored, store with getters", unit: "ops/s", higherIsBetter: true, jit: median(gettersUnmirroredRates), baselineKey: "hub.unmirrored_writes"),
            Figure(key: "hub.native_apply_getters", label: "hub alone: one apply_mutation carrying getters", unit: "µs", higherIsBetter: false, jit: median(gettersNativeApply), baselineKey: "hub.native_apply"),
            Figure(key: "hub.native_apply_posted_getters", label: "hub alone, as posted, carrying getters", unit: "µs", higherIsBetter: false, jit: median(gettersPostedApply), baselineKey: "hub.native_apply_posted"),
        ] + (try await HubApplyBenchmark(repetitions: repetitions).run())
            + (try await DispatchFloorBenchmark(repetitions: repetitions).run()) // floors of the round trip, steps of the 1 MB sync
    }

    private func page(_ hub: GlobalStateHub, flush: StoreScripts.Flush, getters: Bool = false) async throws -> JavaScriptEngine {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench", logger: quietLogger))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(flush: flush)
        try await engine.evaluate(Self.storeSource(getters: getters), sourceURL: "bench-store.js")
        return engine
    }

    /// Direct writes in JavaScript, each mirrored; timed until the mirror holds the last one.
    /// With `getters`, on the store with getters: the mirror's `double` must end at twice `n`.
    func mirroredWritesPerSecond(flush: StoreScripts.Flush, writes: Int, getters: Bool = false) async throws -> Double {
        let hub = GlobalStateHub()
        let engine = try await page(hub, flush: flush, getters: getters)
        // Ticks of 1,000 writes; the plugin flushes each tick as it ends.
        let seconds = try await timedWrites(engine, setUp: "const s = globalThis.benchStore;", writes: writes).seconds ?? .infinity
        let n = Double(writes / 1000 * 1000)
        guard hub.state(of: "bench")?["n"] == .number(n) else { throw BenchmarkError.mirrorMismatch("bench.n") }
        if getters, hub.getters(of: "bench")?["double"] != .number(2 * n) { throw BenchmarkError.mirrorMismatch("bench.double") }
        return n / seconds
    }

    /// The loop of ``mirroredWritesPerSecond(flush:writes:)`` on a store the sync plugin does not
    /// see (made with the pinia the plugin wraps), on the same page: what the store runtime's
    /// write costs alone.
    /// With `getters`, the store has a getter that each write changes (nothing reads it).
    func unmirroredWritesPerSecond(writes: Int, getters: Bool = false) async throws -> Double {
        let hub = GlobalStateHub()
        let engine = try await page(hub, flush: .sync)
        let definition = getters ? "{ state: () => ({ n: 0 }), getters: { double: (state) => state.n * 2 } }" : "{ state: () => ({ n: 0 }) }"
        let result = try await timedWrites(engine, setUp: "const s = defineStore('plain', \(definition))(StateHubSync.installed.originalCreatePinia());",
                                           writes: writes)
        guard hub.state(of: "plain") == nil, result.n == .number(Double(writes / 1000 * 1000)), let seconds = result.seconds else {
            throw BenchmarkError.mirrorMismatch("the unmirrored store was mirrored, or missed writes")
        }
        await engine.close()
        return Double(writes / 1000 * 1000) / seconds
    }

    /// The loop of ``mirroredWritesPerSecond(flush:writes:)`` with the sync plugin taken out of the
    /// write: a store the plugin does not see, whose one sync subscriber (given the ops as the
    /// plugin's is) posts the text the plugin posts for such a write — the same envelope, a new
    /// message id and seq each time — to the hub's entry, with nothing else: no action tag, no
    /// checks of the value, no error queue. The mirror must end equal, so the hub applied every one.
    func bareSubscriberWritesPerSecond(writes: Int) async throws -> Double {
        let hub = GlobalStateHub()
        let engine = try await page(hub, flush: .sync)
        let result = try await timedWrites(engine, setUp: """
              const handler = window.webkit.messageHandlers.nativeBridge;
              const s = defineStore('floor', { state: () => ({ n: 0 }) })(StateHubSync.installed.originalCreatePinia());
              const head = '{"v":1,"storeId":"floor","messageId":"f';
              let seq = 1, id = 1;
              handler.postMessage(head + '1","seq":1,"type":"sync_state","payload":{"state":{"n":0},"reason":"created"}}');
              const options = { flush: 'sync' };
              options[Symbol.for('statehub.opsCallback')] = function (type, ops) {
                handler.postMessage([head, ++id, '","seq":', ++seq, ',"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":',
                  ops[0].value, '}]}]}}'].join(''));
              };
              s.$subscribe(function () {}, options);
            """, writes: writes)
        let expected = Double(writes / 1000 * 1000)
        guard result.n == .number(expected), hub.state(of: "floor")?["n"] == .number(expected), let seconds = result.seconds else {
            throw BenchmarkError.mirrorMismatch("floor.n: the bare subscriber's writes did not all reach the mirror")
        }
        await engine.close()
        return expected / seconds
    }

    /// Runs `setUp`, which defines `s` (a store with a number `n`), then `writes` (whole thousands)
    /// `s.n++` in ticks of 1,000 as one async function: the seconds the writes took, and `s.n`.
    private func timedWrites(_ engine: JavaScriptEngine, setUp: String, writes: Int) async throws -> (seconds: Double?, n: JSONValue?) {
        let result = try await engine.evaluateAndAwait("""
            (async function () {
              \(setUp)
              const t0 = performance.now();
              for (let tick = 0; tick < \(writes / 1000); tick++) {
                for (let i = 0; i < 1000; i++) s.n++;
                await null;
              }
              await null;
              return [(performance.now() - t0) / 1000, s.n];
            })()
            """)
        return (result[0]?.numberValue, result[1])
    }

    /// Which decoder a message's shape selects: the plugin's own key order goes through the key
    /// matcher (`StoreMessageDecoder`); `payload` before `type` makes it give up, so the same
    /// content goes through the generic parser.
    enum MessageShape { case plugin, generic }

    /// The native half alone: messages as the plugin writes them, handed to the hub's
    /// receive path directly (no engine), one store, one `set` each.
    /// With `threadCPU`, the CPU time of the thread that ran the loop instead of the wall clock.
    /// With `asPosted`, each message goes through the receiver the hub installed on the page, as
    /// bytes (the path of an engine's `postMessage`), not through `receive(_:from:)`.
    /// With `getters`, each message also carries the getter its write changed, as the plugin sends it.
    func nativeApplyMicroseconds(messages: Int, shape: MessageShape = .plugin, threadCPU: Bool = false, asPosted: Bool = false,
                                 getters: Bool = false) async throws -> Double {
        let hub = GlobalStateHub()
        let page = SilentPage()
        try await hub.attach(page)
        hub.receive(#"{"v":1,"storeId":"bench","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":0,"items":[{"id":"p0","qty":1}]},"reason":"created"}}"#, from: "silent")
        let texts = (0..<messages).map { index in
            let carried = getters ? #","getters":{"double":\#(index * 2)}"# : ""
            let payload = #""payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":\#(index)}]}]\#(carried)}"#
            let envelope = #""v":1,"storeId":"bench","messageId":"w\#(index + 2)","seq":\#(index + 2)"#
            return switch shape {
            case .plugin: "{" + envelope + #","type":"apply_mutation","# + payload + "}"
            case .generic: "{" + envelope + "," + payload + #","type":"apply_mutation"}"#
            }
        }
        let start = ContinuousClock.now
        let startCPU = threadCPU ? DispatchFloorBenchmark.threadCPUSeconds() : 0
        if asPosted {
            for text in texts { page.post(text) }
        } else {
            for text in texts { hub.receive(text, from: "silent") }
        }
        let seconds = threadCPU ? DispatchFloorBenchmark.threadCPUSeconds() - startCPU : (ContinuousClock.now - start).seconds
        guard hub.state(of: "bench")?["n"] == .number(Double(messages - 1)) else { throw BenchmarkError.mirrorMismatch("bench.n after \(hub.problems.prefix(3))") }
        if getters, hub.getters(of: "bench")?["double"] != .number(Double(2 * (messages - 1))) { throw BenchmarkError.mirrorMismatch("bench.double") }
        return seconds * 1e6 / Double(messages)
    }

    /// A page mirrored the naive way: no hub; every write posts the whole state as JSON,
    /// which native parses whole into `NaiveMirror`.
    private func naivePage() async throws -> (JavaScriptEngine, NaiveMirror) {
        let engine = try JavaScriptEngine(configuration: .init(name: "naive", logger: quietLogger))
        let mirror = NaiveMirror()
        try await engine.installMessageHandler(named: "naiveBridge") { text in mirror.replace(text) }
        try await engine.loadStoreRuntime()
        try await engine.execute(Self.storeSource, sourceURL: "bench-store.js")
        try await engine.execute("benchStore.$subscribe(() => window.webkit.messageHandlers.naiveBridge.postMessage(JSON.stringify(benchStore.$state)), { flush: 'sync' })")
        return (engine, mirror)
    }

    /// The naive plugin's write rate.
    func naiveWritesPerSecond(writes: Int) async throws -> Double {
        let (engine, mirror) = try await naivePage()
        let seconds = try await engine.evaluate("""
            (function () {
              const s = globalThis.benchStore;
              const t0 = performance.now();
              for (let i = 0; i < \(writes); i++) s.n++;
              return (performance.now() - t0) / 1000;
            })()
            """).numberValue ?? .infinity
        guard mirror.state?["n"] == .number(Double(writes)) else { throw BenchmarkError.mirrorMismatch("naive n") }
        return Double(writes) / seconds
    }

    /// `hub.dispatch` of a one-line action, awaited: native → JS → mutation mirrored → result.
    ///
    /// From a task on the global pool, each answer wakes another thread; with the caller
    /// on the page's own executor (`JavaScriptEngine.taskExecutor`) it resumes in place.
    func roundTripMicroseconds(count: Int, onPageExecutor: Bool = false) async throws -> (Double, Double) {
        let hub = GlobalStateHub()
        let engine = try await page(hub, flush: .tick)
        @Sendable func measure() async throws -> [Double] {
            var samples: [Double] = []
            samples.reserveCapacity(count)
            for index in 0..<(count + 200) {
                let start = ContinuousClock.now
                try await hub.dispatch(store: "bench", action: "inc", args: [1])
                if index >= 200 { samples.append((ContinuousClock.now - start).seconds * 1e6) } // 200 warm-up calls
            }
            return samples
        }
        let samples = onPageExecutor ? try await withTaskExecutorPreference(engine.taskExecutor) { try await measure() } : try await measure()
        guard hub.state(of: "bench")?["n"] == .number(Double(count + 200)) else { throw BenchmarkError.mirrorMismatch("bench.n") }
        withExtendedLifetime(engine) {}
        return (percentile(samples, 0.5), percentile(samples, 0.99))
    }

    /// The naive round trip: evaluate `benchStore.inc(1)` as source, full state posted back.
    func naiveRoundTripMicroseconds(count: Int) async throws -> Double {
        let (engine, mirror) = try await naivePage()
        var samples: [Double] = []
        for index in 0..<(count + 50) {
            let start = ContinuousClock.now
            try await engine.evaluate("benchStore.inc(\(1))")
            if index >= 50 { samples.append((ContinuousClock.now - start).seconds * 1e6) }
        }
        guard mirror.state?["n"] == .number(Double(count + 50)) else { throw BenchmarkError.mirrorMismatch("naive n") }
        return percentile(samples, 0.5)
    }

    /// A store of about 1 MB announced to the hub: encode, post, parse, mirror.
    func megabyteSyncMilliseconds() async throws -> Double {
        let hub = GlobalStateHub()
        let engine = try JavaScriptEngine(configuration: .init(name: "big", logger: quietLogger))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime()
        let milliseconds = try await engine.evaluate("""
            (function () {
              const useBig = defineStore('big', { state: () => ({ rows: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: 'row number ' + i, value: i * 0.5, flags: [true, false], note: 'lorem ipsum dolor sit amet ' + i })) }) });
              const store = useBig();
              const request = JSON.stringify({ v: 1, storeId: 'big', messageId: 'bench', type: 'request_sync', payload: {} });
              const t0 = performance.now();
              window.nativeBridge.dispatch(request);
              return performance.now() - t0;
            })()
            """).numberValue ?? .infinity
        guard let rows = hub.state(of: "big")?["rows"]?.arrayValue, rows.count == 9000 else { throw BenchmarkError.mirrorMismatch("big.rows") }
        let bytes = hub.state(of: "big")?.jsonText().utf8.count ?? 0
        guard bytes > 900_000 else { throw BenchmarkError.mirrorMismatch("big is only \(bytes) bytes") }
        return milliseconds
    }
}

/// The naive mirror: replaced whole by every message.
final class NaiveMirror: @unchecked Sendable {
    private let lock = NSLock()
    private var value: JSONValue?
    func replace(_ text: String) {
        let parsed = try? JSONValue(parsing: text)
        lock.lock(); value = parsed; lock.unlock()
    }
    var state: JSONValue? { lock.lock(); defer { lock.unlock() }; return value }
}

/// Benchmarks keep the console quiet: the naive pages have no hub, and the plugin says so.
let quietLogger = Logger(label: "statehub.bench", factory: { _ in SwiftLogNoOpLogHandler() })

/// A page that never posts and drops what it is sent: the hub's receive path measured alone.
/// ``post(_:)`` hands a text to the receiver the hub installed, as its bytes, as an engine does.
final class SilentPage: PageTransport {
    let pageID = "silent"
    /// The receiver in a box: a closure stored in the `Mutex` itself comes back as two reabstraction
    /// thunks calling each other until the stack runs out (Swift 6.3, release and debug builds).
    private final class Receiver: Sendable {
        let body: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
        init(_ body: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) { self.body = body }
    }
    private let bytesReceiver = Mutex<Receiver?>(nil)
    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {}
    func receiveMessageBytes(on channel: String, _ receiver: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) async throws {
        bytesReceiver.withLock { $0 = Receiver(receiver) }
    }
    /// The hub's receive path as an engine enters it (`GlobalStateHub.attach`'s receiver).
    func post(_ text: String) {
        guard let receiver = bytesReceiver.withLock({ $0 }) else { return }
        var text = text
        text.withUTF8 { receiver.body($0) }
    }
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {}
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
