import Foundation
import JSEngine
import Logging
import StateHub
import StateHubTesting

/// The soak (docs/reliability.md): two pages host one store while native
/// dispatches run and both pages write at random; at every quiet point the mirror must equal
/// both pages' states and the count must equal the dispatches that succeeded; memory must
/// stay flat once warm.
struct Soak {
    var duration: Duration
    var seed: UInt64
    var log: (String) -> Void

    struct Result {
        var rounds = 0
        var dispatches = 0
        var discarded = 0
        var writes = 0
        var rssAfterWarmUp = 0
        var rssAtEnd = 0
        var rssPeak = 0
    }

    enum Failure: Error, CustomStringConvertible {
        case diverged(round: Int, detail: String)
        case memoryGrew(from: Int, to: Int)
        var description: String {
            switch self {
            case .diverged(let round, let detail): "soak: round \(round): \(detail)"
            case .memoryGrew(let from, let to): "soak: resident memory grew from \(from / 1024) MiB to \(to / 1024) MiB after warm-up"
            }
        }
    }

    static let store = """
        globalThis.useSoak = defineStore('soak', {
          state: () => ({ count: 0, first: {}, second: [], note: '' }),
          actions: { add(by) { this.count += by; return this.count; } },
        });
        useSoak();
        globalThis.soakWrite = function (r) {
          const s = useSoak();
          const k = 'k' + (r % 50);
          switch (r % 5) {
            case 0: s.first[k] = { r: r, list: [r, String(r)] }; break;
            case 1: delete s.first[k]; break;
            case 2: s.second.push(r); if (s.second.length > 100) s.second.splice(0, 50); break;
            case 3: s.note = 'n' + r; break;
            default: s.$patch({ note: 'p' + r });
          }
        };
        """

    func run() async throws -> Result {
        let hub = GlobalStateHub()
        let quiet = Logger(label: "soak", factory: { _ in SwiftLogNoOpLogHandler() })
        var pages: [JavaScriptEngine] = []
        for name in ["first", "second"] {
            let engine = try JavaScriptEngine(configuration: .init(name: name, logger: quiet))
            try await hub.attach(engine)
            try await engine.loadStoreRuntime()
            try await engine.execute(Self.store, sourceURL: "soak-store.js")
            pages.append(engine)
        }
        var generator = SeededRandomNumberGenerator(seed: seed)
        var result = Result()
        let start = ContinuousClock.now
        let warmUp = min(duration / 5, .seconds(30))
        var warm = false
        while ContinuousClock.now - start < duration {
            result.rounds += 1
            let dispatches = Int(generator.next() % 4)
            let writes = [Int(generator.next() % 6), Int(generator.next() % 6)]
            let base = Int(generator.next() % 1_000_000)
            let outcome = try await withThrowingTaskGroup(of: (Int, Int).self) { group -> (Int, Int) in
                group.addTask {
                    var kept = 0, discarded = 0
                    for _ in 0..<dispatches {
                        do { try await hub.dispatch(store: "soak", action: "add", args: [1]); kept += 1 } catch StateHubError.writesDiscarded { discarded += 1 }
                    }
                    return (kept, discarded)
                }
                for (index, page) in pages.enumerated() {
                    let count = writes[index]
                    group.addTask {
                        for i in 0..<count { try await page.execute("soakWrite(\(base + i * 7 + index))") }
                        return (0, 0)
                    }
                }
                return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
            }
            result.dispatches += outcome.0
            result.discarded += outcome.1
            result.writes += writes.reduce(0, +)
            // Quiet point: let every delivery run, then compare.
            for _ in 0..<3 { for page in pages { try await page.execute("void 0") } }
            guard let mirror = hub.state(of: "soak") else { throw Failure.diverged(round: result.rounds, detail: "no mirror") }
            guard mirror["count"] == .number(Double(result.dispatches)) else {
                throw Failure.diverged(round: result.rounds, detail: "count \(mirror["count"] ?? .null) after \(result.dispatches) successful dispatches")
            }
            for page in pages {
                let state = try await page.evaluate("StateHubSync.encodeValue(getActivePinia().state.value.soak)")
                guard state == mirror else { throw Failure.diverged(round: result.rounds, detail: "page \(page.configuration.name) differs from the mirror") }
            }
            let rss = Self.residentKiB()
            result.rssPeak = max(result.rssPeak, rss)
            if !warm, ContinuousClock.now - start >= warmUp {
                warm = true
                result.rssAfterWarmUp = rss
            }
            if result.rounds % 500 == 0 {
                log("soak: \(result.rounds) rounds, \(result.dispatches) dispatches kept, \(result.discarded) failed truthfully, RSS \(rss / 1024) MiB")
            }
        }
        result.rssAtEnd = Self.residentKiB()
        if result.rssAfterWarmUp == 0 { result.rssAfterWarmUp = result.rssAtEnd }
        for page in pages { await page.close() }
        // Flat: within a quarter of the warm figure plus 16 MiB (allocator and JIT noise).
        if result.rssAtEnd > result.rssAfterWarmUp + result.rssAfterWarmUp / 4 + 16 * 1024 {
            throw Failure.memoryGrew(from: result.rssAfterWarmUp, to: result.rssAtEnd)
        }
        return result
    }

    /// Resident set size in KiB, from /proc/self/statm (0 where there is none).
    static func residentKiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}

