import Foundation
import StateHubTestSupport
import Testing

/// Every run ends, with 1, saying why; `run` fails as `eval` does.
@Suite("statehub run and eval limits", .tags(.integration))
struct RunLimitTests {
    static let spinStore = """
        const useS = defineStore('s', { state: () => ({ n: 0 }), actions: {
          spin() { while (true) {} },
          add() { this.n++ },
        } });
        useS();
        """

    @Test func aSpinningActionIsStoppedAndTheRunExitsOne() async throws {
        let file = try StateHubBinary.script(Self.spinStore, named: "spin.js")
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.spin", "--dispatch", "s.add", "--time-limit", "0.5"])
        #expect(result.status == 1)
        // The page is usable after the stop: the next dispatch runs and is mirrored.
        #expect(result.stdout.contains("→ s.add() = undefined"), "\(result.stdout)")
        #expect(result.stdout.contains("\"n\": 1"), "\(result.stdout)")
        #expect(result.stderr.contains("stopped after 0.5 s"), "\(result.stderr)")
        #expect(!result.stderr.contains("went away"), "\(result.stderr)")
        // Printed once, where it happened (the hub's problem about it is in --json's problems).
        #expect(result.stderr.components(separatedBy: "stopped after 0.5 s").count == 2, "\(result.stderr)")
        let json = try await StateHubBinary.run(["run", file.path, "--dispatch", "s.spin", "--time-limit", "0.5", "--json"])
        #expect(json.stdout.contains("page main, store s: action spin stopped"), "\(json.stdout)")
    }

    @Test func anEndlessTopLevelLoopIsStoppedNamingTheFile() async throws {
        for command in ["run", "eval"] {
            let file = try StateHubBinary.script("let i = 0;\nwhile (true) { i++ }\n", named: "loop.js")
            let result = try await StateHubBinary.run([command, file.path, "--time-limit", "0.5"])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.hasPrefix("\(file.path)"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("stopped after 0.5 s"), "\(command): \(result.stderr)")
        }
    }

    /// `eval` ends at the first stop even while stopped work keeps coming (an interval that
    /// runs away each time): it waited for the page to become idle, up to the idle limit.
    @Test func evalEndsAtTheFirstStopOfWorkThatKeepsComing() async throws {
        let file = try StateHubBinary.script("setTimeout(() => {\n  setInterval(() => { for (;;) {} }, 10);\n}, 50);\n", named: "interval.js")
        let result = try await StateHubBinary.run(["eval", file.path, "--time-limit", "0.2", "--wall-limit", "60"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("interval.js:2: stopped after 0.2 s (a timer callback"), "\(result.stderr)")
        #expect(result.elapsed < .seconds(30), "eval waited for the page to become idle")
    }

    /// eval exits at the first stop, and the stops that came with it in the same wait are
    /// printed too, a line each (four stopped finalizers print four lines, not one).
    @Test func evalPrintsEveryStopOfTheWaitItEndsIn() async throws {
        // Garbage is made turn after turn until a cleanup runs: one batch of registrations did not
        // always lead to a collection before the page was idle (a fresh-clone run exited 0).
        let file = try StateHubBinary.script("""
            const fr = new FinalizationRegistry((h) => { globalThis.cleaned = true; console.log('cleanup'); for (;;) { performance.now() } });
            let rounds = 0;
            (function churn() {
              for (let i = 0; i < 20000; i++) fr.register({ a: new Array(100) }, i);
              if (!globalThis.cleaned && ++rounds < 500) setTimeout(churn, 0);
            })();
            """, named: "cleanups.js")
        let result = try await StateHubBinary.run(["eval", file.path, "--time-limit", "0.1", "--wall-limit", "60"])
        #expect(result.status == 1, "\(result.stderr)")
        let stops = result.stderr.components(separatedBy: "cleanups.js:1: stopped after 0.1 s (a FinalizationRegistry callback").count - 1
        let ran = result.stdout.components(separatedBy: "cleanup").count - 1
        // The last cleanup may still be running when eval exits: it has no stop yet.
        #expect(stops >= 1 && stops >= ran - 1, "\(ran) cleanups ran, \(stops) stops printed: \(result.stderr)")
    }

    /// An interval stopped again and again until the wall limit: each stop is printed as it
    /// comes (none was: they waited for the end of a run the wall limit ended), and the wall
    /// limit's message names the pending timer, not microtasks the limit cannot stop.
    @Test func intervalStopsArePrintedAsTheyComeUntilTheWallLimit() async throws {
        let file = try StateHubBinary.script("setInterval(() => {\n  for (;;) { performance.now() }\n}, 1);\n", named: "interval.js")
        // 5 s of wall time: a loaded full run gives this child a third of a core, and its start
        // can take most of 2 s (then no stop at all is printed).
        let result = try await StateHubBinary.run(["run", file.path, "--time-limit", "0.05", "--wall-limit", "5"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "interval.js:2: stopped after 0.05 s (a timer callback").count > 3, "\(result.stderr)")
        #expect(result.stderr.contains("stopped after 5 s (the wall-clock limit; --wall-limit changes it): the run had not ended; 1 timer was still pending"), "\(result.stderr)")
        #expect(!result.stderr.contains("microtasks that keep queueing"), "\(result.stderr)")
    }

    /// A `setTimeout(f, 0)` chain at the wall limit is named as one, whether the limit falls
    /// while a timer runs or between two, never as "microtasks …" or "the page was idle".
    @Test func aTimerChainAtTheWallLimitIsNamedAsOne() async throws {
        let file = try StateHubBinary.script("function t() { setTimeout(t, 0); }\nt();\n", named: "chain.js")
        let result = try await StateHubBinary.run(["eval", file.path, "--wall-limit", "1"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("(an interval, or a timer that schedules the next)"), "\(result.stderr)")
        #expect(!result.stderr.contains("idle") && !result.stderr.contains("microtasks"), "\(result.stderr)")
    }

    @Test func unhandledRejectionsAndTimerErrorsFailRunAsTheyFailEval() async throws {
        let rejection = try StateHubBinary.script("Promise.reject(new Error('nobody caught me'));\n", named: "reject.js")
        let timer = try StateHubBinary.script("setTimeout(() => { throw new Error('thrown in a timer') }, 5);\n", named: "timer.js")
        for command in ["run", "eval"] {
            let first = try await StateHubBinary.run([command, rejection.path])
            #expect(first.status == 1, "\(command)")
            #expect(first.stderr.contains("unhandled promise rejection: nobody caught me"), "\(command): \(first.stderr)")
            let second = try await StateHubBinary.run([command, timer.path])
            #expect(second.status == 1, "\(command)")
            #expect(second.stderr.contains("thrown in a timer"), "\(command): \(second.stderr)")
        }
    }

    @Test func numericOptionsAreValidated() async throws {
        let file = try StateHubBinary.script("1", named: "one.js")
        for value in ["1e20", "nan", "inf", "-1", "0", "soon"] {
            for command in ["run", "eval"] {
                let result = try await StateHubBinary.run([command, file.path, "--time-limit", value])
                #expect(result.status == 2, "\(command) --time-limit \(value): \(result.stderr)")
                // "-1" reads as an option to ArgumentParser: its own usage error, exit 2 too.
                if value != "-1" { #expect(result.stderr.contains("--time-limit must be a number of seconds"), "\(result.stderr)") }
            }
            let old = try await StateHubBinary.run(["run", file.path, "--timeout", value])
            #expect(old.status == 2, "--timeout \(value): \(old.stderr)")
        }
        // Below 10 ms the page's own set-up was stopped: a usage error naming the minimum.
        for command in ["run", "eval"] {
            let short = try await StateHubBinary.run([command, file.path, "--time-limit", "0.001"])
            #expect(short.status == 2, "\(command): \(short.stderr)")
            #expect(short.stderr.contains("--time-limit must be at least 0.01 seconds"), "\(command): \(short.stderr)")
        }
        let memory = try await StateHubBinary.run(["eval", file.path, "--memory-limit", "lots"])
        #expect(memory.status == 2)
        let unknown = try await StateHubBinary.run(["eval", file.path, "--time-limt", "3"])
        #expect(unknown.status == 2)
        let version = try await StateHubBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("statehub "))
    }

    @Test func unboundedAllocationIsStoppedByTheMemoryLimit() async throws {
        let file = try StateHubBinary.script("const a = []; let i = 0;\nwhile (true) { a.push({ i: i++, s: 'x' + i }) }\n", named: "alloc.js")
        let result = try await StateHubBinary.run(["eval", file.path, "--memory-limit", "400", "--time-limit", "120"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("over --memory-limit 400 MiB"), "\(result.stderr)")
        #expect(result.stderr.contains(file.path), "\(result.stderr)")
    }

    /// One signal, sent once the run's dispatch is in the trace, ends the run at once, with the
    /// trace written and closed. The signal handler must be in place from the start: a run on a
    /// loaded machine must not ignore a signal and go on to its own deadline.
    ///
    /// The trace is a FIFO that the test reads as the run writes it, so the signal follows the
    /// `action_result` record itself; the run's end closes the FIFO, which ends the reading.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalWritesAndClosesTheTrace(signal: Int32) async throws {
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        let file = try StateHubBinary.script(Self.spinStore + "\nsetInterval(() => {}, 10);\n", named: "busy.js")
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-\(name)-\(UUID().uuidString).ndjson")
        #expect(mkfifo(trace.path, 0o600) == 0, "mkfifo: \(errno)")
        defer { try? FileManager.default.removeItem(at: trace) }
        let process = Process()
        process.executableURL = StateHubBinary.url
        process.arguments = ["run", file.path, "--dispatch", "s.add", "--trace", trace.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let (lines, line) = AsyncStream.makeStream(of: String.self)
        let path = trace.path
        // Read on a thread of its own: opening a FIFO waits until the run opens it too.
        async let written: [String] = offThePool { Self.readLines(ofFIFO: path, yieldingTo: line) }
        await waitFor("the dispatch's action_result in the trace", in: lines) { $0.contains("\"action_result\"") }
        kill(process.processIdentifier, signal)
        let stderr = String(decoding: await err.fileHandleForReading.readToEndOffThePool(), as: UTF8.self)
        await process.exitedOffThePool()
        // A run that ended before opening the FIFO leaves the reader waiting for a writer: this
        // one opens and closes it (and fails, harmlessly, once the reader is gone).
        let releasing = open(path, O_WRONLY | O_NONBLOCK)
        if releasing >= 0 { close(releasing) }
        let records = await written
        #expect(process.terminationStatus == 128 + signal, "\(stderr)")
        #expect(stderr.contains("statehub: \(name): stopped; trace written to"), "\(stderr)")
        #expect(records.count >= 3)
        #expect(records.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    /// Every line written to the FIFO at `path` until its last writer closes it, each also
    /// yielded to `sink` as it arrives.
    private static func readLines(ofFIFO path: String, yieldingTo sink: AsyncStream<String>.Continuation) -> [String] {
        defer { sink.finish() }
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        var lines: [String] = []
        var pending = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...end)
                lines.append(text)
                sink.yield(text)
            }
        }
        return lines
    }
}
