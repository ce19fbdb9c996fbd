import Foundation
import JSEngine
import StateHub

/// The floors under `hub.dispatch` and the 1 MB sync, measured in the same run as
/// the figures they explain: what a round trip cannot go below on this machine, and where
/// the 1 MB sync's time goes, step by step.
struct DispatchFloorBenchmark {
    var repetitions = 5

    func run() async throws -> [Figure] {
        var pingPongs: [Double] = []
        var hops: [Double] = []
        var stringify: [Double] = []
        var crossing: [Double] = []
        var parse: [Double] = []
        var receive: [Double] = []
        var compare: [Double] = []
        var free: [Double] = []
        var syncCPU: [Double] = []
        var syncTotal: [Double] = []
        var syncNative: [Double] = []
        var parked: [Double] = []
        var idleCPU: [Double] = []
        var sparseCPU: [Double] = []
        var sparseCPUParked: [Double] = []
        var idleCPUParked: [Double] = []
        for _ in 0..<repetitions {
            parked.append(try await roundTripMicroseconds(count: 2_000, spin: false))
            let cpu = try await idleCPUMilliseconds(spin: true)
            idleCPU.append(cpu.idle)
            sparseCPU.append(cpu.sparse)
            let parkedCPU = try await idleCPUMilliseconds(spin: false)
            sparseCPUParked.append(parkedCPU.sparse)
            idleCPUParked.append(parkedCPU.idle)
            let split = try await megabyteSyncSplit()
            syncTotal.append(split.total)
            syncNative.append(split.native)
            syncCPU.append(split.cpu)
            pingPongs.append(Self.threadPingPongMicroseconds(count: 5_000))
            hops.append(try await engineHopMicroseconds(count: 2_000))
            let steps = try await megabyteSteps()
            stringify.append(steps.stringify)
            crossing.append(steps.crossing)
            parse.append(steps.parse)
            receive.append(steps.receive)
            compare.append(steps.compare)
            free.append(steps.free)
        }
        return [
            Figure(key: "floor.round_trip_parked", label: "round trip from the pool, no spinning (park at once), p50", unit: "µs", higherIsBetter: false, jit: median(parked), baselineKey: "floor.engine_hop"),
            Figure(key: "floor.idle_cpu", label: "CPU of an idle page after 2,000 dispatches, per s", unit: "ms/s", higherIsBetter: false, jit: median(idleCPU), baselineKey: "floor.idle_cpu_parked"),
            Figure(key: "floor.idle_cpu_parked", label: "the same, no spinning", unit: "ms/s", higherIsBetter: false, jit: median(idleCPUParked)),
            Figure(key: "floor.sparse_cpu", label: "CPU, a dispatch every ~2 ms, spinning, per s", unit: "ms/s", higherIsBetter: false, jit: median(sparseCPU), baselineKey: "floor.sparse_cpu_parked"),
            Figure(key: "floor.sparse_cpu_parked", label: "CPU, a dispatch every ~2 ms, no spinning, per s", unit: "ms/s", higherIsBetter: false, jit: median(sparseCPUParked)),
            Figure(key: "floor.thread_ping_pong", label: "floor: two threads ping-pong (semaphores), p50", unit: "µs", higherIsBetter: false, jit: median(pingPongs)),
            Figure(key: "floor.engine_hop", label: "floor: pool → page thread → pool, no JS, p50", unit: "µs", higherIsBetter: false, jit: median(hops), baselineKey: "floor.thread_ping_pong"),
            Figure(key: "sync_1mb.total", label: "1 MB sync, whole (as hub.sync_1mb)", unit: "ms", higherIsBetter: false, jit: median(syncTotal)),
            Figure(key: "sync_1mb.native", label: "1 MB sync, of which in the hub's receiver", unit: "ms", higherIsBetter: false, jit: median(syncNative), baselineKey: "sync_1mb.total"),
            Figure(key: "sync_1mb.cpu", label: "1 MB sync, CPU time of the page's thread", unit: "ms", higherIsBetter: false, jit: median(syncCPU), baselineKey: "sync_1mb.total"),
            Figure(key: "sync_1mb.stringify", label: "1 MB sync, step: JSON.stringify in the page", unit: "ms", higherIsBetter: false, jit: median(stringify)),
            Figure(key: "sync_1mb.crossing", label: "1 MB sync, step: the string into Swift", unit: "ms", higherIsBetter: false, jit: median(crossing)),
            Figure(key: "sync_1mb.parse", label: "1 MB sync, step: StateHubJSON parse", unit: "ms", higherIsBetter: false, jit: median(parse)),
            Figure(key: "sync_1mb.receive", label: "1 MB sync, step: hub.receive (parse + mirror)", unit: "ms", higherIsBetter: false, jit: median(receive)),
            Figure(key: "sync_1mb.compare", label: "1 MB sync, step: old mirror == new (only when shared)", unit: "ms", higherIsBetter: false, jit: median(compare)),
            Figure(key: "sync_1mb.free", label: "1 MB sync, step: freeing the old tree (off the page's thread)", unit: "ms", higherIsBetter: false, jit: median(free)),
        ]
    }

    /// A page for the round trip of `hub.round_trip_p50`, with the caller's and the page thread's
    /// spins on or off.
    private func page(spin: Bool) async throws -> (GlobalStateHub, JavaScriptEngine) {
        var hubConfiguration = GlobalStateHub.Configuration()
        var engineConfiguration = JavaScriptEngine.Configuration(name: "bench", logger: quietLogger)
        if !spin {
            hubConfiguration.dispatchSpin = .zero
            engineConfiguration.idleSpin = .zero
        }
        let hub = GlobalStateHub(configuration: hubConfiguration)
        let engine = try JavaScriptEngine(configuration: engineConfiguration)
        try await hub.attach(engine)
        try await engine.loadStoreRuntime()
        try await engine.evaluate(HubBenchmark.storeSource, sourceURL: "bench-store.js")
        return (hub, engine)
    }

    /// `hub.round_trip_p50` from the global pool, with both spins switched off when `spin` is
    /// false: every answer then wakes the caller's thread and every dispatch the page's.
    func roundTripMicroseconds(count: Int, spin: Bool) async throws -> Double {
        let (hub, engine) = try await page(spin: spin)
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<(count + 200) {
            let start = ContinuousClock.now
            try await hub.dispatch(store: "bench", action: "inc", args: [1])
            if index >= 200 { samples.append((ContinuousClock.now - start).seconds * 1e6) }
        }
        guard hub.state(of: "bench")?["n"] == .number(Double(count + 200)) else { throw BenchmarkError.mirrorMismatch("bench.n") }
        withExtendedLifetime(engine) {}
        return percentile(samples, 0.5)
    }

    /// The process's CPU time (all threads) over a wall-clock second: right after a burst of
    /// dispatches (the spins must stop), and with one dispatch about every 2 ms (a spin that
    /// finds nothing each time, until the policy switches it off). Milliseconds of CPU per second.
    func idleCPUMilliseconds(spin: Bool) async throws -> (idle: Double, sparse: Double) {
        let (hub, engine) = try await page(spin: spin)
        for _ in 0..<2_000 { try await hub.dispatch(store: "bench", action: "inc", args: [1]) }
        let idleStart = (ContinuousClock.now, Self.processCPUSeconds())
        try await Task.sleep(for: .seconds(1))
        let idle = (Self.processCPUSeconds() - idleStart.1) / (ContinuousClock.now - idleStart.0).seconds
        let sparseStart = (ContinuousClock.now, Self.processCPUSeconds())
        for _ in 0..<500 {
            try await hub.dispatch(store: "bench", action: "inc", args: [1])
            try await Task.sleep(for: .milliseconds(2))
        }
        let sparse = (Self.processCPUSeconds() - sparseStart.1) / (ContinuousClock.now - sparseStart.0).seconds
        withExtendedLifetime(engine) {}
        return (idle * 1e3, sparse * 1e3)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Two OS threads handing a token back and forth through semaphores: each hand-over wakes
    /// a parked thread, as a round trip from the global pool does twice. Median of one round.
    static func threadPingPongMicroseconds(count: Int) -> Double {
        let ping = DispatchSemaphore(value: 0)
        let pong = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let partner = Thread {
            for _ in 0..<(count + 200) {
                ping.wait()
                pong.signal()
            }
            done.signal()
        }
        partner.start()
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<(count + 200) {
            let start = ContinuousClock.now
            ping.signal()
            pong.wait()
            if index >= 200 { samples.append((ContinuousClock.now - start).seconds * 1e6) }
        }
        done.wait()
        return percentile(samples, 0.5)
    }

    /// From a task on the global pool to the engine's thread and back, running nothing:
    /// the two wake-ups of a pool caller's round trip, without JavaScript or the hub.
    func engineHopMicroseconds(count: Int) async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "hop", logger: quietLogger))
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for index in 0..<(count + 200) {
            let start = ContinuousClock.now
            _ = await engine.pendingTimerCount
            if index >= 200 { samples.append((ContinuousClock.now - start).seconds * 1e6) }
        }
        await engine.close()
        return percentile(samples, 0.5)
    }

    /// `hub.sync_1mb` again, with the time spent in the hub's receiver (on the page's thread,
    /// inside `postMessage`) told apart from the page's own: milliseconds.
    func megabyteSyncSplit() async throws -> (total: Double, native: Double, cpu: Double) {
        let hub = GlobalStateHub()
        let engine = try JavaScriptEngine(configuration: .init(name: "big", logger: quietLogger))
        let timed = TimedPage(engine)
        try await hub.attach(timed)
        try await engine.loadStoreRuntime()
        // The page thread's own CPU time: what the sync costs it, without the waits for a core
        // that a loaded machine adds to the wall-clock figure.
        try await engine.bind("threadCPUMilliseconds") { _ in .number(Self.threadCPUSeconds() * 1e3) }
        let milliseconds = try await engine.evaluate("""
            (function () {
              const useBig = defineStore('big', { state: () => ({ rows: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: 'row number ' + i, value: i * 0.5, flags: [true, false], note: 'lorem ipsum dolor sit amet ' + i })) }) });
              const store = useBig();
              const request = JSON.stringify({ v: 1, storeId: 'big', messageId: 'bench', type: 'request_sync', payload: {} });
              const c0 = threadCPUMilliseconds();
              const t0 = performance.now();
              window.nativeBridge.dispatch(request);
              const t1 = performance.now();
              return [t1 - t0, threadCPUMilliseconds() - c0];
            })()
            """)
        guard hub.state(of: "big")?["rows"]?.arrayValue?.count == 9000 else { throw BenchmarkError.mirrorMismatch("big.rows") }
        let times = milliseconds.arrayValue?.compactMap(\.numberValue) ?? []
        guard times.count == 2 else { throw BenchmarkError.missingMessage }
        return (times[0], timed.lastReceiveSeconds * 1e3, times[1])
    }

    /// `count` parses of the 1 MB state's text with StateHubJSON, in milliseconds each (wall
    /// clock, and CPU time of the parsing thread): the loop `bench dispatch --receive-only` profiles.
    func megabyteParses(count: Int) async throws -> (wall: [Double], cpu: [Double]) {
        let text = try await megabyteStateText()
        var parses: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            let startCPU = Self.threadCPUSeconds()
            let value = try JSONValue(parsing: text)
            cpu.append((Self.threadCPUSeconds() - startCPU) * 1e3)
            parses.append((ContinuousClock.now - start).seconds * 1e3)
            withExtendedLifetime(value) {}
        }
        return (parses, cpu)
    }

    /// The 1 MB state's text as the page's `JSON.stringify` writes it.
    private func megabyteStateText() async throws -> String {
        let engine = try JavaScriptEngine(configuration: .init(name: "big-text", logger: quietLogger))
        let box = MessageBox()
        try await engine.installMessageHandler(named: "steps") { text in box.arrived(text) }
        try await engine.execute("""
            window.webkit.messageHandlers.steps.postMessage(JSON.stringify({ rows: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: 'row number ' + i, value: i * 0.5, flags: [true, false], note: 'lorem ipsum dolor sit amet ' + i })) }))
            """)
        await engine.close()
        guard let text = box.last else { throw BenchmarkError.missingMessage }
        return text
    }

    /// The 1 MB state of `hub.sync_1mb`, step by step: `JSON.stringify` of it in the page, its
    /// text handed to Swift through the message handler, our parser alone, and the hub's
    /// whole receive path (parse and mirror) on that text, without an engine. Milliseconds, the
    /// median of 5 each.
    func megabyteSteps() async throws -> (stringify: Double, crossing: Double, parse: Double, receive: Double, compare: Double, free: Double) {
        let engine = try JavaScriptEngine(configuration: .init(name: "big-steps", logger: quietLogger))
        let box = MessageBox()
        try await engine.installMessageHandler(named: "steps") { text in box.arrived(text) }
        let stringify = try await engine.evaluate("""
            (function () {
              globalThis.bigState = { rows: Array.from({ length: 9000 }, (_, i) => ({ id: i, name: 'row number ' + i, value: i * 0.5, flags: [true, false], note: 'lorem ipsum dolor sit amet ' + i })) };
              const times = [];
              for (let i = 0; i < 5; i++) {
                const t0 = performance.now();
                globalThis.bigText = JSON.stringify(globalThis.bigState);
                times.push(performance.now() - t0);
              }
              times.sort((a, b) => a - b);
              return times[2];
            })()
            """).numberValue ?? .infinity
        var crossings: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            try await engine.execute("window.webkit.messageHandlers.steps.postMessage(globalThis.bigText)")
            crossings.append((ContinuousClock.now - start).seconds * 1e3)
        }
        await engine.close()
        guard let state = box.last else { throw BenchmarkError.missingMessage }
        var parses: [Double] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            let value = try JSONValue(parsing: state)
            parses.append((ContinuousClock.now - start).seconds * 1e3)
            withExtendedLifetime(value) {}
        }
        let message = #"{"v":1,"storeId":"big","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":"# + state + #","reason":"created"}}"#
        var receives: [Double] = []
        for _ in 0..<5 {
            let hub = GlobalStateHub()
            try await hub.attach(SilentPage())
            let start = ContinuousClock.now
            hub.receive(message, from: "silent")
            receives.append((ContinuousClock.now - start).seconds * 1e3)
            guard hub.state(of: "big")?["rows"]?.arrayValue?.count == 9000 else { throw BenchmarkError.mirrorMismatch("big.rows after \(hub.problems.prefix(3))") }
        }
        // What the hub does not do on the page's thread for a store alone: compare the old
        // mirror with the new one, and free the old tree there.
        var compares: [Double] = []
        var frees: [Double] = []
        for _ in 0..<5 {
            var old: JSONValue? = try JSONValue(parsing: state)
            let new = try JSONValue(parsing: state)
            let start = ContinuousClock.now
            let same = old.map { $0.isSemanticallyEqual(to: new) } ?? false
            compares.append((ContinuousClock.now - start).seconds * 1e3)
            guard same else { throw BenchmarkError.mirrorMismatch("the two parses differ") }
            let freeing = ContinuousClock.now
            old = nil // the only reference: the whole tree is freed here
            frees.append((ContinuousClock.now - freeing).seconds * 1e3)
            withExtendedLifetime((old, new)) {}
        }
        return (stringify, median(crossings), median(parses), median(receives), median(compares), median(frees))
    }
}

/// The last message a handler received, read after the engine is done with it.
private final class MessageBox: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?
    func arrived(_ message: String) { lock.lock(); text = message; lock.unlock() }
    var last: String? { lock.lock(); defer { lock.unlock() }; return text }
}

/// An engine seen through a transport that times each message's delivery to the hub.
private final class TimedPage: PageTransport, @unchecked Sendable {
    let engine: JavaScriptEngine
    private let lock = NSLock()
    private var seconds = 0.0
    init(_ engine: JavaScriptEngine) { self.engine = engine }
    var pageID: String { engine.pageID }
    var lastReceiveSeconds: Double { lock.lock(); defer { lock.unlock() }; return seconds }
    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {
        try await engine.receiveMessages(on: channel) { [weak self] text in
            let start = ContinuousClock.now
            receiver(text)
            let elapsed = (ContinuousClock.now - start).seconds
            self?.lock.lock(); self?.seconds = elapsed; self?.lock.unlock()
        }
    }
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {
        engine.send(message, toFunction: functionPath, onFailure: onFailure)
    }
    func onClose(_ handler: @escaping @Sendable () -> Void) { engine.onClose(handler) }
}
