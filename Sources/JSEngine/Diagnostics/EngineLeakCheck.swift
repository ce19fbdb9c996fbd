import Foundation

/// Checks that the engine returns what it takes: many evaluate / call / bind cycles in one
/// engine, then many engines created and destroyed, with resident memory and engine threads
/// counted before and after.
///
/// Meant for a command-line check (`statehub` can expose it) and for tests, with smaller
/// counts. The figures are the process's own (`/proc/self/statm`, `/proc/self/task`), so
/// run it alone for exact numbers; under LeakSanitizer it also exercises every release path.
public struct EngineLeakCheck: Sendable {
    /// evaluate + call + bind + function-handle cycles run in one engine.
    public var cycles: Int
    /// Engines created, used and destroyed one after the other.
    public var engines: Int

    public init(cycles: Int = 100_000, engines: Int = 1_000) {
        self.cycles = cycles
        self.engines = engines
    }

    /// What the check measured. Memory in bytes; `nil` where the platform has no `/proc`.
    public struct Report: Sendable, CustomStringConvertible {
        public var cycles: Int
        public var engines: Int
        /// Resident memory after warming up, after the cycles, and after the engines.
        public var residentBefore: Int?
        public var residentAfterCycles: Int?
        public var residentAfterEngines: Int?
        /// Threads named `js:leakcheck` other than live engines' own — JSC helper threads that
        /// inherited the name — before the engines, and after every engine was released
        /// (equal when no engine thread is left behind).
        public var engineThreadsBefore: Int?
        public var engineThreadsAfter: Int?
        public var duration: Duration

        /// Growth over the cycles, and over the engines, in bytes.
        public var cycleGrowth: Int? { residentAfterCycles.flatMap { after in residentBefore.map { after - $0 } } }
        public var engineGrowth: Int? { residentAfterEngines.flatMap { after in residentAfterCycles.map { after - $0 } } }

        public var description: String {
            func mebibytes(_ bytes: Int?) -> String {
                guard let bytes else { return "n/a" }
                return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
            }
            return """
                \(cycles) evaluate/call/bind cycles: RSS \(mebibytes(residentBefore)) → \(mebibytes(residentAfterCycles)) (\(mebibytes(cycleGrowth)))
                \(engines) engines created and destroyed: RSS → \(mebibytes(residentAfterEngines)) (\(mebibytes(engineGrowth))); \
                engine threads \(engineThreadsBefore.map(String.init) ?? "n/a") → \(engineThreadsAfter.map(String.init) ?? "n/a")
                took \(duration)
                """
        }
    }

    static let engineName = "leakcheck"

    public func run() async throws -> Report {
        let started = ContinuousClock.now
        var engine: JavaScriptEngine? = try JavaScriptEngine(configuration: .init(name: Self.engineName))
        let cycleThread = engine?.thread
        try await engine?.execute("var total = 0; function add(n) { total += n; return {total, n}; }")
        // Warm up: JIT tiers, heap pools and caches settle before the first measurement.
        if let engine { try await Self.runCycles(engine, count: max(1_000, cycles / 10)) }
        // Minus the first engine's own thread: what is left is JSC helper threads that
        // inherited the name, which outlive engines.
        let threadsBefore = Self.engineThreadCount().map { $0 - 1 }
        let before = Self.residentBytes()
        if let engine { try await Self.runCycles(engine, count: cycles) }
        let afterCycles = Self.residentBytes()
        await engine?.close()
        engine = nil
        for index in 0..<engines {
            let disposable = try JavaScriptEngine(configuration: .init(name: Self.engineName))
            try await disposable.bind("native", on: "app") { arguments in .number(Double(arguments.count)) }
            let function = try await disposable.function("function (x) { return app.native(x, x) + x; }")
            _ = try await disposable.call(function, [.number(Double(index))])
            _ = try await disposable.evaluate("({index: \(index), list: [1, 2, 3].map(x => x * 2)})")
        }
        // Engine threads end on their own once released: give them a moment, so nothing is
        // half torn down when the caller exits.
        let deadline = ContinuousClock.now + .seconds(30)
        while let cycleThread, !cycleThread.hasExited, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        while let count = Self.engineThreadCount(), let threadsBefore, count > threadsBefore, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let afterEngines = Self.residentBytes()
        return Report(
            cycles: cycles, engines: engines, residentBefore: before, residentAfterCycles: afterCycles,
            residentAfterEngines: afterEngines, engineThreadsBefore: threadsBefore,
            engineThreadsAfter: Self.engineThreadCount(), duration: ContinuousClock.now - started)
    }

    /// One cycle: evaluate a script, call a held function, bind a closure (replacing the
    /// previous one) and take and drop a function handle. In batches, one hop each.
    static func runCycles(_ engine: JavaScriptEngine, count: Int) async throws {
        let add = try await engine.function("add")
        var done = 0
        while done < count {
            let batch = min(1_000, count - done)
            let offset = done
            try await engine.perform { engine in
                for index in offset..<(offset + batch) {
                    _ = try engine.evaluate("total + \(index % 7)")
                    _ = try engine.call(add, [.number(1)])
                    try engine.bind("bound", on: "cycle") { arguments in arguments.first ?? .null }
                    let handle = try engine.function("cycle.bound")
                    _ = try engine.call(handle, [.string("x")])
                }
            }
            done += batch
        }
    }

    /// Resident memory of this process in bytes, from `/proc/self/statm`.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Threads of this process named after `engineName`'s engines, from `/proc/self/task`.
    static func engineThreadCount() -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
        let name = EngineThread.threadName(for: engineName)
        return tasks.filter { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }
}
