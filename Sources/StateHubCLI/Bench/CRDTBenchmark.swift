import Foundation
import SharedDocument

/// `statehub bench crdt`: SharedDocument beside Yjs (node, Debian's node-yjs) and Yrs
/// (pycrdt) on the crdt-benchmarks workloads, all measured in the same run.
struct CRDTBenchmark {
    struct Measurement {
        var editMs: Double
        var encodeMs: Double
        var applyMs: Double
        var update: [UInt8]
        /// Bytes one document loaded from the update takes, averaged over
        /// ``memoryDocuments(updateSize:)`` documents: the growth of the heap the implementation
        /// allocates from (Swift and Yrs: glibc's malloc heap in use, since Yrs's Rust allocates
        /// with malloc; Yjs: V8's heap after GC, plus its off-heap buffers).
        var memory: Double
    }

    struct Row {
        var workload: CRDTWorkload
        var swift: Measurement
        var yjs: Measurement?
        var yrs: Measurement?
    }

    var repetitions: Int
    var peers = true
    var workloads: [CRDTWorkload]

    func run() throws -> [Row] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-bench-crdt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yjsScript = folder.appendingPathComponent("yjs.cjs")
        let yrsScript = folder.appendingPathComponent("yrs.py")
        try Data(CRDTPeerScripts.yjs.utf8).write(to: yjsScript)
        try Data(CRDTPeerScripts.yrs.utf8).write(to: yrsScript)
        var rows: [Row] = []
        for workload in workloads {
            let file = folder.appendingPathComponent("\(workload.key).json")
            try JSONEncoder().encode(workload).write(to: file)
            let swift = try measureSwift(workload)
            let documents = String(Self.memoryDocuments(updateSize: swift.update.count))
            let yjs = peers ? try measurePeer(["node", "--expose-gc", yjsScript.path, file.path, String(repetitions), documents], environment: ["NODE_PATH": "/usr/share/nodejs"]) : nil
            let yrs = peers ? try measurePeer(["python3", yrsScript.path, file.path, String(repetitions), documents], environment: [:]) : nil
            rows.append(Row(workload: workload, swift: swift, yjs: yjs, yrs: yrs))
        }
        return rows
    }

    func edit(_ document: SharedDocument, _ ops: [CRDTWorkload.Op], kind: CRDTWorkload.Kind) throws {
        switch kind {
        case .text:
            let text = try document.text("text")
            for op in ops {
                if op.delete > 0 { try text.delete(at: op.position, count: op.delete) }
                if !op.insert.isEmpty { try text.insert(op.insert, at: op.position) }
            }
        case .arrayPush:
            let array = try document.array("array")
            for op in ops { try array.push([.int(Int64(op.insert) ?? 0)]) }
        }
    }

    func read(_ document: SharedDocument, kind: CRDTWorkload.Kind) throws -> Int {
        switch kind {
        case .text: try document.text("text").toString().utf16.count
        case .arrayPush: try document.array("array").count
        }
    }

    func measureSwift(_ workload: CRDTWorkload) throws -> Measurement {
        var edits: [Double] = []
        var encodes: [Double] = []
        var applies: [Double] = []
        var update: [UInt8] = []
        // Process CPU time, as the peers measure: steadier than wall time on a loaded machine.
        func measure(_ body: () throws -> Void) rethrows -> Double {
            let start = Self.cpuMilliseconds()
            try body()
            return Self.cpuMilliseconds() - start
        }
        for _ in 0..<repetitions {
            let document = SharedDocument(clientID: 1)
            edits.append(try measure {
                try edit(document, workload.ops, kind: workload.kind)
                if let concurrent = workload.concurrentOps {
                    let other = SharedDocument(clientID: 2)
                    try edit(other, concurrent, kind: workload.kind)
                    try other.applyUpdate(try document.encodeStateAsUpdate())
                    try document.applyUpdate(try other.encodeStateAsUpdate())
                }
            })
            encodes.append(try measure { update = try document.encodeStateAsUpdate() })
            applies.append(try measure {
                let fresh = SharedDocument()
                switch workload.kind {
                case .text: _ = try fresh.text("text")
                case .arrayPush: _ = try fresh.array("array")
                }
                try fresh.applyUpdate(update)
                _ = try read(fresh, kind: workload.kind)
            })
        }
        let before = Self.heapInUse()
        var kept: [SharedDocument] = []
        for _ in 0..<Self.memoryDocuments(updateSize: update.count) {
            let document = SharedDocument()
            try document.applyUpdate(update)
            document.inferRootKinds()
            kept.append(document)
        }
        let memory = Double(Self.heapInUse() - before) / Double(kept.count)
        return Measurement(editMs: median(edits), encodeMs: median(encodes), applyMs: median(applies), update: update, memory: memory)
    }

    /// How many documents the memory figure loads and keeps. A small document's growth must
    /// stand well above the heap's own noise: 10 documents of 6 KB moved V8's figure by more than
    /// their size (2, 5, even −16 KB per document between runs), so small updates load 100.
    /// Large ones load 20, which keeps a real trace's 100 documents (200–300 MB per
    /// implementation) off a shared machine.
    static func memoryDocuments(updateSize: Int) -> Int {
        updateSize < 100_000 ? 100 : 20
    }

    static func cpuMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Bytes of the malloc heap in use, from glibc's `malloc_info` report (system memory
    /// taken minus free chunks, plus mmapped blocks). `malloc_info` is looked up at run time:
    /// Swift's Glibc module does not declare malloc.h.
    static func heapInUse() -> Int {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info"), let file = tmpfile() else { return 0 }
        defer { fclose(file) }
        _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, file)
        let size = ftell(file)
        rewind(file)
        var buffer = [UInt8](repeating: 0, count: max(size, 0))
        _ = fread(&buffer, 1, buffer.count, file)
        let report = String(decoding: buffer, as: UTF8.self)
        // The totals come last, after the per-arena entries.
        func last(_ prefix: String) -> Int {
            guard let range = report.range(of: prefix, options: .backwards) else { return 0 }
            let rest = report[range.upperBound...]
            guard let sizeRange = rest.range(of: "size=\"") else { return 0 }
            return Int(rest[sizeRange.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        return last("<system type=\"current\"") - last("<total type=\"fast\"") - last("<total type=\"rest\"") + last("<total type=\"mmap\"")
    }

    func measurePeer(_ command: [String], environment: [String: String]) throws -> Measurement? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let edits = object["edit"] as? [Double], let encodes = object["encode"] as? [Double], let applies = object["apply"] as? [Double],
              let encoded = object["update"] as? String, let bytes = Data(base64Encoded: encoded) else {
            throw BenchmarkError.childFailed("\(command[0]) \(command.dropFirst().first ?? ""): \(errorText.suffix(500))")
        }
        return Measurement(editMs: median(edits), encodeMs: median(encodes), applyMs: median(applies), update: [UInt8](bytes), memory: object["memory"] as? Double ?? 0)
    }

    /// The side-by-side table: medians, and how many times slower (or larger) the others are.
    static func print(_ rows: [Row], repetitions: Int) {
        func cell(_ value: Double?, _ format: String = "%.2f") -> String {
            guard let value else { return "—".padding(toLength: 10, withPad: " ", startingAt: 0) }
            let text = String(format: format, value)
            return String(repeating: " ", count: max(0, 10 - text.count)) + text
        }
        func ratio(_ other: Double?, _ ours: Double) -> String {
            guard let other, ours > 0 else { return "     —" }
            let text = String(format: "%.1f×", other / ours)
            return String(repeating: " ", count: max(0, 7 - text.count)) + text
        }
        let width = (rows.map { $0.workload.label.count }.max() ?? 40) + 22
        Output.line("statehub bench crdt — medians of \(repetitions) runs, process CPU time; ratios are the other implementation's figure ÷ Swift's (above 1: Swift is faster or smaller)")
        Output.line("figure".padding(toLength: width, withPad: " ", startingAt: 0) + "     Swift  Yjs(node) Yrs(pycrdt)  Yjs÷Swift Yrs÷Swift")
        for row in rows {
            let name = row.workload.label
            let lines: [(String, String, KeyPath<Measurement, Double>, String)] = [
                ("edits", "ms", \.editMs, "%.2f"), ("encode", "ms", \.encodeMs, "%.3f"), ("apply update", "ms", \.applyMs, "%.3f"), ("memory / document", "KB", \.memory, "%.0f"),
            ]
            for (what, unit, path, format) in lines {
                let scale = unit == "KB" ? 1.0 / 1024 : 1.0
                let label = "\(name): \(what) (\(unit))".padding(toLength: width, withPad: " ", startingAt: 0)
                Output.line(label + cell(row.swift[keyPath: path] * scale, format) + " " + cell(row.yjs.map { $0[keyPath: path] * scale }, format) + "  " + cell(row.yrs.map { $0[keyPath: path] * scale }, format) + "   " + ratio(row.yjs?[keyPath: path], row.swift[keyPath: path]) + "   " + ratio(row.yrs?[keyPath: path], row.swift[keyPath: path]))
            }
            let comparison = switch row.yjs.map({ $0.update == row.swift.update }) {
            case true?: "  bytes identical to Yjs's"
            case false?: "  DIFFERENT bytes from Yjs's"
            case nil: "  (not compared: --swift-only)"
            }
            let label = "\(name): update size (bytes)".padding(toLength: width, withPad: " ", startingAt: 0)
            Output.line(label + cell(Double(row.swift.update.count), "%.0f") + " " + cell(row.yjs.map { Double($0.update.count) }, "%.0f") + "  " + cell(row.yrs.map { Double($0.update.count) }, "%.0f") + "   " + comparison)
        }
    }
}
