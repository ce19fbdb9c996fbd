// webview-bench: a WebKitGTK page against the engine-backed HostedPage, in one process and one run
// (docs/webview.md "Benchmarks", docs/benchmarks.md "Web view").
//
//   xvfb-run -a swift run -c debug webview-bench [--dispatches 300] [--writes 2000] [--starts 5] [--extra-pages 4]
//
// Prints medians (p50/p99 for the round trip) and the ratio web view / engine. No test times anything;
// this is the only place these figures come from.
import Foundation
import JSEngine
import StateHub
import StateHubPage
import WebKitGTKPage

/// Options from the command line: `--name value`, each a positive count.
struct Options {
    var dispatches = 300
    var warmUp = 50
    var writes = 2000
    var starts = 5
    var extraPages = 4

    init(_ arguments: [String]) throws(BenchError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else { throw .badArgument(flag) }
            switch flag {
            case "--dispatches": dispatches = value
            case "--warm-up": warmUp = value
            case "--writes": writes = value
            case "--starts": starts = value
            case "--extra-pages": extraPages = value
            default: throw .badArgument(flag)
            }
        }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case badArgument(String)
    case mirrorTimedOut(kind: String, figure: String)

    var description: String {
        switch self {
        case .badArgument(let flag): "bad or unknown option \(flag) (each option takes a positive count)"
        case .mirrorTimedOut(let kind, let figure): "\(kind): the hub's mirror did not reach the expected state within 60 s (\(figure))"
        }
    }
}

/// The store every page loads: a counter, an action that adds, and one that writes `n` times in a loop.
let benchStore = """
    const useBench = defineStore('bench', {
      state: () => ({ count: 0, writes: 0 }),
      actions: {
        add(n) { this.count += n; return this.count },
        burst(n) { for (let i = 0; i < n; i++) { this.writes += 1 } return n },
      },
    });
    useBench();
    """

/// One kind of page, behind what the figures need: its hub, and closing it.
struct BenchPage {
    let hub: GlobalStateHub
    let close: @Sendable () async -> Void
}

enum Kind: String, CaseIterable {
    case webView = "web view"
    case engine = "engine"

    /// A page with the bench store, attached to a hub, as each integration sets one up.
    /// `.sync` flush: one `apply_mutation` message per write, so the write figure counts messages.
    func makePage(name: String) async throws -> BenchPage {
        switch self {
        case .webView:
            let hub = GlobalStateHub()
            let page = try await WebViewPage.make(.init(name: name, flush: .sync,
                                                        bundles: [.init(path: "bench.js", source: benchStore)]))
            try await hub.attach(page)
            try await page.load()
            return BenchPage(hub: hub, close: { await page.close() })
        case .engine:
            let page = try await HostedPage.make(.init(name: name, bundles: [.init(path: "bench.js", source: benchStore)],
                                                       flush: .sync))
            return BenchPage(hub: page.hub, close: { await page.close() })
        }
    }
}

/// Waits until `condition` holds of the mirror of `store`; false after 60 s.
func mirror(of hub: GlobalStateHub, _ store: String, becomes condition: @escaping @Sendable (JSONValue?) -> Bool) async -> Bool {
    await hub.mirror(of: store, becomes: condition, within: .seconds(60))
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[index]
}

/// Resident set size in KiB of a process, from /proc/<pid>/status (VmRSS); 0 if it is gone.
func residentKiB(_ pid: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// This process's RSS plus that of all its descendants (WebKitWebProcess, WebKitNetworkProcess and any
/// sandbox wrapper between): the parent of each pid from /proc/<pid>/stat, walked down from ours.
/// Pages shared between processes count once per process, so this overstates what the system spends.
func treeResidentKiB() -> (total: Double, processes: Int) {
    let tree = descendants()
    return (tree.reduce(0) { $0 + residentKiB($1) }, tree.count)
}

/// This process and all its descendants, by the parent named in each /proc/<pid>/stat.
func descendants() -> [String] {
    let me = String(getpid())
    var children: [String: [String]] = [:]
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
    for pid in pids {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // After "pid (comm)": state, then ppid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1 else { continue }
        children[String(fields[1]), default: []].append(pid)
    }
    var tree: [String] = [], queue = [me]
    while let pid = queue.popLast() {
        tree.append(pid)
        queue.append(contentsOf: children[pid] ?? [])
    }
    return tree
}

/// `JSC_useJIT` as the web processes see it (their /proc/<pid>/environ), so the printout says whether
/// the setting reached the page's JavaScript too: "unset", a value, or "no web process".
func webProcessJITSetting() -> String {
    let webProcesses = descendants().filter {
        (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("WebKitWebProc") == true
    }
    guard let pid = webProcesses.first,
          let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return "no web process" }
    for entry in environ.split(separator: 0) {
        let text = String(decoding: entry, as: UTF8.self)
        if text.hasPrefix("JSC_useJIT=") { return String(text.dropFirst("JSC_useJIT=".count)) }
    }
    return "unset"
}

struct Figures {
    var roundTripP50 = 0.0, roundTripP99 = 0.0, writesPerSecond = 0.0, coldStart = 0.0, memoryPerPage = 0.0
    var processesPerPage = 0.0
    var webProcessJIT = ""
}

func measure(_ kind: Kind, _ options: Options) async throws -> Figures {
    var figures = Figures()
    let clock = ContinuousClock()

    // (1) Dispatch round trip through the hub: native → page action → mirror updated → result.
    do {
        let page = try await kind.makePage(name: "roundtrip")
        guard await mirror(of: page.hub, "bench", becomes: { $0 != nil }) else {
            throw BenchError.mirrorTimedOut(kind: kind.rawValue, figure: "round trip set-up")
        }
        for _ in 0..<options.warmUp { _ = try await page.hub.dispatch(store: "bench", action: "add", args: [1]) }
        var samples: [Double] = []
        for _ in 0..<options.dispatches {
            let start = clock.now
            _ = try await page.hub.dispatch(store: "bench", action: "add", args: [1])
            samples.append(seconds(clock.now - start) * 1e6)
        }
        figures.roundTripP50 = percentile(samples, 0.5)
        figures.roundTripP99 = percentile(samples, 0.99)

        // (2) Page → native: one action writes `writes` times in a loop (one message each, flush sync);
        // timed from the dispatch until the mirror has the last write. Median of three.
        var rates: [Double] = []
        for round in 1...3 {
            let target = Double(options.writes * round)
            let start = clock.now
            _ = try await page.hub.dispatch(store: "bench", action: "burst", args: [.number(Double(options.writes))])
            guard await mirror(of: page.hub, "bench", becomes: { $0?["writes"] == .number(target) }) else {
                throw BenchError.mirrorTimedOut(kind: kind.rawValue, figure: "writes")
            }
            rates.append(Double(options.writes) / seconds(clock.now - start))
        }
        figures.writesPerSecond = percentile(rates, 0.5)
        await page.close()
    }

    // (3) Cold start: create the page, load the store, until the hub mirrors it.
    var starts: [Double] = []
    for index in 0..<options.starts {
        let start = clock.now
        let page = try await kind.makePage(name: "cold\(index)")
        guard await mirror(of: page.hub, "bench", becomes: { $0 != nil }) else {
            throw BenchError.mirrorTimedOut(kind: kind.rawValue, figure: "cold start")
        }
        starts.append(seconds(clock.now - start) * 1e3)
        await page.close()
    }
    figures.coldStart = percentile(starts, 0.5)

    // (4) Memory per extra page: RSS of this process and its descendants before and after N more
    // pages, each with its store mirrored; settled for a second each side.
    try await Task.sleep(for: .seconds(1))
    let before = treeResidentKiB()
    var pages: [BenchPage] = []
    for index in 0..<options.extraPages {
        let page = try await kind.makePage(name: "extra\(index)")
        guard await mirror(of: page.hub, "bench", becomes: { $0 != nil }) else {
            throw BenchError.mirrorTimedOut(kind: kind.rawValue, figure: "memory")
        }
        pages.append(page)
    }
    try await Task.sleep(for: .seconds(1))
    let after = treeResidentKiB()
    figures.webProcessJIT = webProcessJITSetting()
    figures.memoryPerPage = (after.total - before.total) / Double(options.extraPages)
    figures.processesPerPage = Double(after.processes - before.processes) / Double(options.extraPages)
    for page in pages { await page.close() }
    return figures
}

func format(_ value: Double) -> String {
    value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    // The first web view's thread before the first engine (docs/webview.md, "Engines in the same process").
    _ = try GTKMainLoop.start()
    let web = try await measure(.webView, options)
    let engine = try await measure(.engine, options)
    let rows: [(String, KeyPath<Figures, Double>, String)] = [
        ("dispatch round trip through the hub, p50", \.roundTripP50, "µs"),
        ("dispatch round trip through the hub, p99", \.roundTripP99, "µs"),
        ("page → native writes mirrored (flush sync)", \.writesPerSecond, "msgs/s"),
        ("cold start (create → store → mirrored)", \.coldStart, "ms"),
        ("memory per extra page (RSS, process tree)", \.memoryPerPage, "KiB"),
        ("processes per extra page", \.processesPerPage, ""),
    ]
    print("webview-bench: \(options.dispatches) dispatches after \(options.warmUp) warm-up, \(options.writes) writes ×3, "
        + "\(options.starts) cold starts, \(options.extraPages) extra pages")
    let jit = ProcessInfo.processInfo.environment["JSC_useJIT"].map { "JSC_useJIT=\($0)" } ?? "JIT on (JSC_useJIT unset)"
    print("this process: \(jit); the web processes: JSC_useJIT \(web.webProcessJIT)")
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
    print(pad("figure", 46) + pad("web view", 12) + pad("engine", 12) + pad("unit", 8) + "web view / engine")
    for (name, path, unit) in rows {
        let ratio = engine[keyPath: path] == 0 ? "-" : String(format: "%.2f×", web[keyPath: path] / engine[keyPath: path])
        print(pad(name, 46) + pad(format(web[keyPath: path]), 12) + pad(format(engine[keyPath: path]), 12) + pad(unit, 8) + ratio)
    }
} catch {
    FileHandle.standardError.write(Data("webview-bench: \(error)\n".utf8))
    exit(1)
}
