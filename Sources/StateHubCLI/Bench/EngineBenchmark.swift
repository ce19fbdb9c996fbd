import Foundation
import JSEngine

/// The raw-engine baseline every other benchmark is compared with.
///
/// Each figure is the median of `repetitions` runs. Loops that cross the boundary run on
/// the engine thread (one hop per run, not per call), so they measure the crossing itself.
struct EngineBenchmark {
    var repetitions = 5
    var calls = 200_000

    /// A ~100-byte JSON message, the size of a typical `apply_mutation`.
    static let message = #"{"v":1,"storeId":"cart","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[]}}"#

    func run() async throws -> [Figure] {
        var jsToNative: [Double] = []
        var receiverCalls: [Double] = []
        var bytesReceiverCalls: [Double] = []
        var nativeToJS: [Double] = []
        var rawJSToNative: [Double] = []
        var rawNativeToJS: [Double] = []
        var limitedJSToNative: [Double] = []
        var evaluations: [Double] = []
        var coldStarts: [Double] = []
        var textConversion: [Double] = []
        var walkingConversion: [Double] = []
        for _ in 0..<repetitions {
            rawJSToNative.append(try await rawJSToNativeCallsPerSecond())
            jsToNative.append(try await jsToNativeCallsPerSecond())
            receiverCalls.append(try await receiverCallsPerSecond())
            bytesReceiverCalls.append(try await receiverCallsPerSecond(bytes: true))
            limitedJSToNative.append(try await jsToNativeCallsPerSecond(timeLimit: .seconds(10)))
            rawNativeToJS.append(try await nativeToJSCallsPerSecond(raw: true))
            nativeToJS.append(try await nativeToJSCallsPerSecond())
            evaluations.append(try await evaluationsPerSecond())
            coldStarts.append(try await coldStartMilliseconds())
            let (text, walking) = try await conversionMicroseconds()
            textConversion.append(text)
            walkingConversion.append(walking)
        }
        let memory = try await memoryPerEngineKiB()
        return [
            // The C API's floor: the same calls with JavaScriptCore's C API alone, in the same run.
            Figure(key: "engine.raw_js_to_native", label: "floor: JS→native calls, raw C callback (string arg)", unit: "calls/s", higherIsBetter: true, jit: median(rawJSToNative)),
            Figure(key: "engine.js_to_native", label: "JS→native calls (JSON string arg)", unit: "calls/s", higherIsBetter: true, jit: median(jsToNative)),
            Figure(key: "engine.raw_js_to_native_us", label: "floor: JS→native call, raw C callback", unit: "µs", higherIsBetter: false, jit: 1e6 / median(rawJSToNative)),
            Figure(key: "engine.js_to_native_us", label: "JS→native call, bound closure", unit: "µs", higherIsBetter: false, jit: 1e6 / median(jsToNative), baselineKey: "engine.raw_js_to_native_us"),
            // The string-only entry: no array of arguments, no result converted back.
            Figure(key: "engine.js_to_native_receiver_us", label: "JS→native call, string receiver (bindReceiver)", unit: "µs", higherIsBetter: false, jit: 1e6 / median(receiverCalls), baselineKey: "engine.raw_js_to_native_us"),
            // The UTF-8 entry: the bytes lent, no `String` made — what the hub receives through.
            Figure(key: "engine.js_to_native_bytes_us", label: "JS→native call, UTF-8 receiver (bindBytesReceiver)", unit: "µs", higherIsBetter: false, jit: 1e6 / median(bytesReceiverCalls), baselineKey: "engine.raw_js_to_native_us"),
            // What a page set up as `statehub run` does it pays: the CPU clock read around each native call (docs/benchmarks.md).
            Figure(key: "engine.js_to_native_limit_us", label: "JS→native call, engine with a 10 s time limit", unit: "µs", higherIsBetter: false, jit: 1e6 / median(limitedJSToNative), baselineKey: "engine.raw_js_to_native_us"),
            Figure(key: "engine.native_to_js", label: "native→JS function calls", unit: "calls/s", higherIsBetter: true, jit: median(nativeToJS)),
            Figure(key: "engine.raw_native_to_js_us", label: "floor: native→JS call, JSObjectCallAsFunction", unit: "µs", higherIsBetter: false, jit: 1e6 / median(rawNativeToJS)),
            Figure(key: "engine.native_to_js_us", label: "native→JS function call", unit: "µs", higherIsBetter: false, jit: 1e6 / median(nativeToJS), baselineKey: "engine.raw_native_to_js_us"),
            Figure(key: "engine.evaluate", label: "evaluate `1 + 1`", unit: "evals/s", higherIsBetter: true, jit: median(evaluations)),
            Figure(key: "engine.cold_start", label: "cold start (create → 20 KB script → first message)", unit: "ms", higherIsBetter: false, jit: median(coldStarts)),
            Figure(key: "engine.convert_text", label: "JS→JSON, 1 KB object via JSON text", unit: "µs", higherIsBetter: false, jit: median(textConversion)),
            Figure(key: "engine.convert_walk", label: "JS→JSON, 1 KB object by walking (C API)", unit: "µs", higherIsBetter: false, jit: median(walkingConversion)),
            Figure(key: "engine.memory_per_engine", label: "memory per extra engine", unit: "KiB", higherIsBetter: false, jit: memory),
        ]
    }

    /// The JS loop both JS→native figures time: `calls` calls of `name(message)`, in milliseconds.
    func callLoop(calling name: String) -> String {
        """
            (function () {
              const message = \(JSONValue.string(Self.message).jsonText());
              const t0 = performance.now();
              for (let i = 0; i < \(calls); i++) \(name)(message);
              return performance.now() - t0;
            })()
            """
    }

    /// `timeLimit`: the engine is made with that execution time limit (and so its unresponsive watch).
    func jsToNativeCallsPerSecond(timeLimit: Duration? = nil) async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench", executionTimeLimit: timeLimit))
        try await engine.bind("receive") { arguments in
            // Touch the argument the way a message handler would.
            arguments.first?.stringValue?.utf8.count == 0 ? .bool(false) : .null
        }
        let milliseconds = try await engine.evaluate(callLoop(calling: "receive")).numberValue ?? .infinity
        return Double(calls) / (milliseconds / 1000)
    }

    /// The same loop into `bindReceiver`, which reads the one string and returns `undefined`;
    /// with `bytes`, into `bindBytesReceiver`, which lends its UTF-8 bytes.
    func receiverCallsPerSecond(bytes: Bool = false) async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench"))
        let empty = EmptyCount()
        if bytes {
            try await engine.bindBytesReceiver("receive") { text in
                if text.count == 0 { empty.add() }
            }
        } else {
            try await engine.bindReceiver("receive") { text in
                // Touch the argument the way a message handler would.
                if text.utf8.count == 0 { empty.add() }
            }
        }
        let milliseconds = try await engine.evaluate(callLoop(calling: "receive")).numberValue ?? .infinity
        guard empty.value == 0 else { throw BenchmarkError.mirrorMismatch("the receiver saw an empty message") }
        return Double(calls) / (milliseconds / 1000)
    }

    /// The floor of `jsToNativeCallsPerSecond`: the same loop into a bare C callback.
    func rawJSToNativeCallsPerSecond() async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench"))
        return try await engine.rawJSToNativeCallsPerSecond(boundAs: "rawReceive", loop: callLoop(calling: "rawReceive"), calls: calls)
    }

    /// `raw`: the floor, the same calls through `JSObjectCallAsFunction` directly.
    func nativeToJSCallsPerSecond(raw: Bool = false) async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench"))
        let function = try await engine.function("function (message) { return message.length; }")
        let calls = self.calls
        let message = Self.message
        if raw { return try await engine.rawNativeToJSCallsPerSecond(function, message: message, calls: calls) }
        return try await engine.perform { engine in
            let start = ContinuousClock.now
            for _ in 0..<calls { try engine.call(function, [.string(message)]) }
            return Double(calls) / (ContinuousClock.now - start).seconds
        }
    }

    func evaluationsPerSecond() async throws -> Double {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench"))
        let count = calls / 4
        return try await engine.perform { engine in
            let start = ContinuousClock.now
            for _ in 0..<count { try engine.evaluate("1 + 1") }
            return Double(count) / (ContinuousClock.now - start).seconds
        }
    }

    /// A 20 KB script: a store-like module with many small functions.
    static let coldStartScript: String = {
        var source = "var bench = {};\n"
        var index = 0
        while source.utf8.count < 20_000 {
            source += "bench.f\(index) = function (state, payload) { const next = Object.assign({}, state); next.count = (next.count || 0) + \(index); next.items = (next.items || []).concat([payload]); return next; };\n"
            index += 1
        }
        source += "window.webkit.messageHandlers.nativeBridge.postMessage(JSON.stringify({ready: true, functions: \(index)}));\n"
        return source
    }()

    func coldStartMilliseconds() async throws -> Double {
        let start = ContinuousClock.now
        let engine = try JavaScriptEngine(configuration: .init(name: "cold"))
        let received = Received()
        try await engine.installMessageHandler(named: "nativeBridge") { _ in received.mark() }
        try await engine.evaluate(Self.coldStartScript, sourceURL: "cold-start.js")
        guard received.count == 1 else { throw BenchmarkError.missingMessage }
        return (ContinuousClock.now - start).seconds * 1000
    }

    /// Microseconds per conversion of a ~1 KB nested object, through JSON text and by walking.
    func conversionMicroseconds() async throws -> (Double, Double) {
        let engine = try JavaScriptEngine(configuration: .init(name: "convert"))
        let expression = "{items: Array.from({length: 12}, (_, i) => ({id: i, name: 'item ' + i, price: i * 1.5, tags: ['a', 'b']})), total: 99.5, user: {id: 'u1', loggedIn: true}}"
        let iterations = 20_000
        var results: [Double] = []
        for strategy in [JSONConversionStrategy.jsonText, .walking] {
            let start = ContinuousClock.now
            _ = try await engine.convertRepeatedly(expression, iterations: iterations, strategy: strategy)
            results.append((ContinuousClock.now - start).seconds * 1e6 / Double(iterations))
        }
        return (results[0], results[1])
    }

    /// Resident memory added by each of 20 more engines, each with a small store-like script loaded.
    func memoryPerEngineKiB() async throws -> Double {
        var engines: [JavaScriptEngine] = []
        let warm = try JavaScriptEngine(configuration: .init(name: "warm"))
        try await warm.evaluate(Self.coldStartScript.replacingOccurrences(of: "window.webkit.messageHandlers.nativeBridge.postMessage", with: "void"))
        let before = ResidentMemory.kibibytes()
        for index in 0..<20 {
            let engine = try JavaScriptEngine(configuration: .init(name: "memory-\(index)"))
            try await engine.evaluate(Self.coldStartScript.replacingOccurrences(of: "window.webkit.messageHandlers.nativeBridge.postMessage", with: "void"))
            engines.append(engine)
        }
        let after = ResidentMemory.kibibytes()
        withExtendedLifetime(engines) {}
        return Double(after - before) / 20
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case missingMessage
    case childFailed(String)
    case mirrorMismatch(String)

    var description: String {
        switch self {
        case .missingMessage: "the benchmark script did not post its message"
        case .childFailed(let why): "the no-JIT child process failed: \(why)"
        case .mirrorMismatch(let what): "the mirror does not hold the expected value: \(what)"
        }
    }
}

/// Counts messages from the engine thread.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func mark() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}

enum ResidentMemory {
    /// Resident set size of this process, from /proc/self/statm.
    static func kibibytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Counts empty messages a receiver saw (none expected): the bench's closure must use its text.
private final class EmptyCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
