import CapabilityBridge
import Foundation
import JSEngine
import StateHub
import Synchronization

/// `run --json`'s one JSON object on stdout, printed exactly once however the run ends: at
/// the end, when a script throws or is stopped, a rejection is unhandled, the wall-clock or
/// memory limit ends the run, a signal arrives, or an argument or file is refused.
///
/// While it is active, ``Output`` sends every line meant for stdout (a script's
/// `console.log`, `⟳ hot-swapped …`) to stderr, so stdout holds the object and nothing
/// else, and it hands the report every line it prints on stderr (``diagnostics``).
/// docs/cli.md describes the object.
final class RunReport: Sendable {
    /// What ended a run early, or the first thing that failed it.
    struct Failure: Sendable {
        var kind: String
        /// The first line as printed on stderr (`FILE:LINE:COLUMN: …`).
        var message: String
        /// The lines after it: a stack, a hint.
        var details: String?
        var file: String?
        var line: Int?
        var column: Int?
        /// For a stop: what ran away, where, after how long (the engine's ``ScriptStop``).
        var stop: JSONValue?

        /// Reads `FILE:LINE[:COLUMN]: ` off the front of the printed text, mapped here (again, if
        /// the caller did: a mapped place names no bundle) so neither `message` nor `details`
        /// ever names a bundle's line (`FILE.mjs#bundle:17:24`).
        init(kind: String, printed: String) {
            self.kind = kind
            let text = SourceMaps.shared.rewrite(printed)
            let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            message = lines.first.map(String.init) ?? text
            details = lines.count > 1 ? String(lines[1]) : nil
            if let place = Self.leadingPlace(message) {
                (file, line, column) = (place.file, place.line, place.column)
            }
        }

        init(kind: String, printed text: String, stop: ScriptStop?) {
            self.init(kind: kind, printed: text)
            self.stop = stop.map(Report.json)
        }

        var json: JSONValue {
            var object: JSONValue.ObjectMembers = ["kind": .string(kind), "message": .string(message)]
            if let file { object["file"] = .string(file) }
            if let line { object["line"] = .number(Double(line)) }
            if let column { object["column"] = .number(Double(column)) }
            if let details, !details.isEmpty { object["details"] = .string(details) }
            if let stop { object["stop"] = stop }
            return .object(object)
        }

        /// `FILE:LINE[:COLUMN]` when the text starts with one followed by `: ` (or ends there):
        /// the first `:LINE[:COLUMN]` so followed ends the file, so a name with spaces or with
        /// `:7 ` inside (`sp ace:7 é.mjs:5: …`) is read whole; none after the first `: `.
        static func leadingPlace(_ text: String) -> (file: String, line: Int, column: Int?)? {
            let head = text[..<(text.firstIndex(of: "\n") ?? text.endIndex)]
            var index = head.startIndex
            while let colon = head[index...].firstIndex(of: ":") {
                index = head.index(after: colon)
                // Past the first `: ` the text is a message, not a file (`w.spin failed: …`).
                if index < head.endIndex, head[index] == " " { return nil }
                guard colon > head.startIndex, let line = digits(head, from: index) else { continue }
                var end = line.end
                var column: Int?
                if end < head.endIndex, head[end] == ":", let second = digits(head, from: head.index(after: end)) {
                    column = second.value
                    end = second.end
                }
                guard end == head.endIndex || head[end...].hasPrefix(": ") else { continue }
                return (String(head[..<colon]), line.value, column)
            }
            return nil
        }

        /// `FILE:LINE[:COLUMN]` read from the end of `frame` (a stack frame `function@FILE:LINE:COLUMN`
        /// with the function already cut off, or a place): any file name is read whole.
        static func trailingPlace(_ frame: String) -> (file: String, line: Int, column: Int?)? {
            let parts = frame.split(separator: ":", omittingEmptySubsequences: false)
            let numbers = parts.reversed().prefix(2).prefix(while: { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }).reversed().compactMap { Int($0) }
            guard !numbers.isEmpty, numbers.count < parts.count else { return nil }
            let file = parts.dropLast(numbers.count).joined(separator: ":")
            guard !file.isEmpty else { return nil }
            return (file, numbers[0], numbers.count == 2 ? numbers[1] : nil)
        }

        /// Takes the place from data the engine gave (an error's or a stop's own file and line),
        /// never from printed text; a place in a bundle goes through its source map.
        mutating func place(file: String?, line: Int?, column: Int?) {
            guard let file, !file.isEmpty, let line else { return }
            if file != SourceMaps.shared.inputPath(of: file) {
                // Still a bundle's line (the engine maps most): the map names the module's place.
                let mapped = SourceMaps.shared.rewrite("\(file):\(line)" + (column.map { ":\($0)" } ?? ""))
                if let place = Self.trailingPlace(mapped), !mapped.contains("bundle wrapper") {
                    (self.file, self.line, self.column) = (place.file, place.line, place.column)
                }
                return
            }
            (self.file, self.line, self.column) = (file, line, column)
        }

        private static func digits(_ text: Substring, from start: Substring.Index) -> (value: Int, end: Substring.Index)? {
            var end = start
            while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
            guard end > start, let value = Int(text[start ..< end]) else { return nil }
            return (value, end)
        }
    }

    private struct State: Sendable {
        var dispatches: [JSONValue] = []
        var failure: Failure?
        var diagnostics: [String] = []
        var diagnosticsDropped = 0
        var hub: GlobalStateHub?
        var shell: HeadlessShell?
        var delivery: JSONValue?
        var printed = false
    }

    private let state = Mutex(State())
    /// Diagnostics kept (the first ones): a run that prints thousands keeps its object small.
    static let diagnosticLimit = 200

    /// Makes this the report ``Output`` feeds, and keeps stdout for the object.
    func activate() {
        Output.setReport(self)
    }

    func attach(hub: GlobalStateHub, shell: HeadlessShell) {
        state.withLock { $0.hub = hub; $0.shell = shell }
    }

    func setDelivery(_ delivery: JSONValue?) {
        state.withLock { $0.delivery = delivery }
    }

    func addDispatch(_ entry: JSONValue) {
        state.withLock { $0.dispatches.append(entry) }
    }

    /// A line printed on stderr (already through the source maps).
    func noteDiagnostic(_ text: String) {
        state.withLock { state in
            if state.diagnostics.count < Self.diagnosticLimit { state.diagnostics.append(text) } else { state.diagnosticsDropped += 1 }
        }
    }

    /// Records what failed the run; the first failure is the one reported.
    func fail(kind: String, printed text: String) {
        fail(Failure(kind: kind, printed: SourceMaps.shared.rewrite(text)))
    }

    func fail(_ failure: Failure) {
        state.withLock { if $0.failure == nil { $0.failure = failure } }
    }

    /// Records the last line printed on stderr as the failure (paths that print, then throw).
    func failWithLastDiagnostic(kind: String) {
        let last = state.withLock { $0.diagnostics.last } ?? "statehub: failed"
        fail(Failure(kind: kind, printed: last))
    }

    /// The object of a command line the parser refused (before any command ran).
    static func printUsageError(_ message: String) {
        let object: JSONValue = ["ok": false, "error": ["kind": "usage", "message": .string(message)]]
        Output.raw(object.jsonText())
    }

    /// Prints the object, once. `ok` is also false whenever a failure was recorded.
    func print(ok: Bool, stores: [(String, JSONValue)]? = nil) {
        let snapshot: State? = state.withLock { state in
            guard !state.printed else { return nil }
            state.printed = true
            return state
        }
        guard var snapshot else { return }
        // A stop reported without the engine's `ScriptStop` (a turn the limit cannot stop ends
        // the run from the engine's watchdog) takes the one the hub recorded for it.
        if let failure = snapshot.failure, failure.stop == nil, let problems = snapshot.hub?.problems {
            let recorded = switch failure.kind {
            case "unresponsive": problems.last(where: { $0.stop?.kind == .unstoppable })?.stop
            case "stopped": problems.first(where: { $0.stop != nil })?.stop
            default: ScriptStop?.none
            }
            // An unstoppable turn's stop names no file; the run may know the dispatched store's.
            var stop = recorded
            if let file = snapshot.failure?.file, stop != nil, stop?.sourceURL?.isEmpty ?? true { stop?.sourceURL = file }
            snapshot.failure?.stop = stop.map(Report.json)
        }
        // The dispatch that stop ended the run in (``RunGuard`` lists it as not finished, before
        // the stop is known) carries the same stop and the file the run knows, as a dispatch
        // a stop failed does.
        if let failure = snapshot.failure, let stop = failure.stop, ["unresponsive", "stopped"].contains(failure.kind) {
            snapshot.dispatches = snapshot.dispatches.map { entry in
                guard case .object(var members) = entry, members["ok"] == .bool(false), members["skipped"] == nil,
                      members["kind"] == .string(failure.kind), members["stop"] == nil else { return entry }
                members["stop"] = stop
                if members["file"] == nil, let file = failure.file { members["file"] = .string(file) }
                if members["line"] == nil, let line = failure.line { members["line"] = .number(Double(line)) }
                return .object(members)
            }
        }
        var object = JSONValue.ObjectMembers()
        object["ok"] = .bool(ok && snapshot.failure == nil)
        if let failure = snapshot.failure { object["error"] = failure.json }
        object["dispatches"] = .array(snapshot.dispatches)
        let mirrors = stores ?? snapshot.hub.map { hub in hub.storeIDs.compactMap { id in hub.state(of: id).map { (id, $0) } } } ?? []
        object["stores"] = .object(.init(uniqueKeysWithValues: mirrors.map { (JSONKey($0.0), $0.1) }))
        // Each store's getters (PROTOCOL.md A.13), for the stores that have any.
        let getters: [(JSONKey, JSONValue)] = mirrors.compactMap { storeId, _ in
            guard let values = snapshot.hub?.getters(of: storeId), values != .object([:]) else { return nil }
            return (JSONKey(storeId), values)
        }
        object["getters"] = .object(.init(uniqueKeysWithValues: getters))
        object["shell"] = snapshot.shell?.state.jsonValue ?? .null
        object["problems"] = .array((snapshot.hub?.problems ?? []).map { .string($0.description) })
        var diagnostics = snapshot.diagnostics.map(JSONValue.string)
        if snapshot.diagnosticsDropped > 0 { diagnostics.append(.string("… \(snapshot.diagnosticsDropped) more lines on stderr")) }
        object["diagnostics"] = .array(diagnostics)
        if let delivery = snapshot.delivery { object["delivery"] = delivery }
        Output.raw(JSONValue.object(object).jsonText())
    }
}
