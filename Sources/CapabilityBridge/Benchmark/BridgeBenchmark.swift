import JSEngine
import Trace

/// The `statehub bench bridge` measurement, as a library function.
///
/// Each round runs, inside one real engine page (page-shim.js and bridge-client.js loaded,
/// attached to a ``BridgeHost`` with a ``HeadlessShell`` and a trace, as in production), a
/// JavaScript async loop of `iterations` sequential `await invokeNative('bench.echo', {n})`
/// timed one by one with `performance.now()`; the handler is a synchronous business handler
/// echoing its payload (``BridgeHost/registerSync(_:payload:result:handler:)``). A second
/// loop does the same with an async handler (`bench.echoAsync`: a task per call, started
/// on the page's thread). The baseline loop does the same over a bare message handler and
/// `PageTransport.send`. Reported figures are medians over the rounds.
///
/// This harness creates engines itself (it is the one place in the module that does): the
/// host still reaches the page only through `PageTransport`.
public enum BridgeBenchmark {
    /// - Parameters:
    ///   - iterations: timed calls per round (≥ 10).
    ///   - rounds: rounds per loop (≥ 1); medians are reported.
    ///   - recordTrace: record bridge traffic into a trace (ring buffer) as the CLI does.
    public static func run(iterations: Int = 10_000, rounds: Int = 5, recordTrace: Bool = true) async throws -> BridgeBenchmarkResult {
        let iterations = max(iterations, 10)
        let rounds = max(rounds, 1)
        let engine = try JavaScriptEngine(configuration: .init(name: "bench"))
        defer { Task { await engine.close() } }
        for script in try BridgeScripts.engineScripts() {
            try await engine.evaluate(script.source, sourceURL: script.path)
        }
        let trace = recordTrace ? TraceRecorder(capacity: 4096, redactor: BridgeHost.defaultTraceRedactor) : nil
        let host = BridgeHost(trace: trace)
        host.registerSync("bench.echo", payload: JSONValue.self, result: JSONValue.self) { payload, _ in payload }
        host.register("bench.echoAsync", payload: JSONValue.self, result: JSONValue.self) { payload, _ in payload }
        try await host.attach(engine, app: MicroApp(id: "bench", grants: .all), shell: HeadlessShell())

        // Baseline: the same round trip with no bridge logic.
        let transport: any PageTransport = engine
        weak let weakTransport = transport
        try await transport.receiveMessages(on: "benchBaseline") { text in
            weakTransport?.send(text, toFunction: "__statehubBenchBaseline.receive", onFailure: nil)
        }
        try await engine.evaluate(loopScript, sourceURL: "statehub:bench-bridge")

        var bridge: [Sample] = []
        var async: [Sample] = []
        var baseline: [Sample] = []
        for _ in 0..<rounds {
            bridge.append(try await sample(engine, "bridge", iterations))
            async.append(try await sample(engine, "bridgeAsync", iterations))
            baseline.append(try await sample(engine, "baseline", iterations))
        }
        return BridgeBenchmarkResult(
            iterations: iterations, rounds: rounds,
            p50Micros: median(bridge.map(\.p50)), p99Micros: median(bridge.map(\.p99)),
            callsPerSecond: median(bridge.map(\.callsPerSecond)),
            asyncP50Micros: median(async.map(\.p50)), asyncP99Micros: median(async.map(\.p99)),
            asyncCallsPerSecond: median(async.map(\.callsPerSecond)),
            baselineP50Micros: median(baseline.map(\.p50)), baselineP99Micros: median(baseline.map(\.p99)),
            baselineCallsPerSecond: median(baseline.map(\.callsPerSecond)))
    }

    struct Sample {
        var p50: Double
        var p99: Double
        var callsPerSecond: Double
    }

    static func sample(_ engine: JavaScriptEngine, _ kind: String, _ iterations: Int) async throws -> Sample {
        let value = try await engine.evaluateAndAwait("__statehubBenchLoop('\(kind)', \(iterations))", timeout: .seconds(600))
        guard let p50 = value["p50"]?.numberValue, let p99 = value["p99"]?.numberValue, let rate = value["rate"]?.numberValue else {
            throw BridgeBenchmarkError.unexpectedLoopResult(value.jsonText())
        }
        return Sample(p50: p50, p99: p99, callsPerSecond: rate)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The JavaScript loops: one timed await per call; µs percentiles and calls/s.
    static let loopScript = """
    (function (root) {
      var waiting = null;
      root.__statehubBenchBaseline = { receive: function (m) { var r = waiting; waiting = null; r(m); } };
      function baseline(n) {
        return new Promise(function (resolve) { waiting = resolve; window.webkit.messageHandlers.benchBaseline.postMessage('{"n":' + n + '}'); });
      }
      function bridge(n) { return invokeNative('bench.echo', { n: n }, { timeout: 0 }); }
      function bridgeAsync(n) { return invokeNative('bench.echoAsync', { n: n }, { timeout: 0 }); }
      root.__statehubBenchLoop = async function (kind, iterations) {
        var call = kind === 'bridge' ? bridge : kind === 'bridgeAsync' ? bridgeAsync : baseline;
        var warm = Math.max(10, Math.floor(iterations / 10));
        for (var i = 0; i < warm; i++) await call(i);
        var times = new Float64Array(iterations);
        var start = performance.now();
        for (var j = 0; j < iterations; j++) {
          var t = performance.now();
          await call(j);
          times[j] = performance.now() - t;
        }
        var total = performance.now() - start;
        times.sort();
        var at = function (q) { return times[Math.min(iterations - 1, Math.floor(q * iterations))] * 1000; };
        return { p50: at(0.5), p99: at(0.99), rate: iterations / (total / 1000) };
      };
    })(globalThis);
    """
}
