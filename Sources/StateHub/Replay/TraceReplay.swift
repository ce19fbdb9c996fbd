import JSEngine
import Trace

/// Rebuilds mirrors from a recorded trace, step by step, with the same code the live hub
/// runs: every web → native store message is fed to a hub whose pages are stand-ins that
/// drop what the hub would send back (the trace already holds the pages' answers).
///
/// Bridge records and native → web records do not change mirrors and are skipped.
public final class TraceReplay {
    private let hub = GlobalStateHub(configuration: .init(maximumMessageBytes: .max))
    private var pages: Set<String> = []

    public init() {}

    /// The mirrors now, by store id.
    public var mirrors: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: hub.storeIDs.compactMap { id in hub.state(of: id).map { (id, $0) } })
    }

    /// The mirror of one store now, or `nil` when the replay has none.
    public func mirror(of storeId: String) -> JSONValue? { hub.state(of: storeId) }

    /// The getters of one store now (docs/PROTOCOL.md A.13), or `nil` when the replay has none.
    public func getters(of storeId: String) -> JSONValue? { hub.getters(of: storeId) }

    /// Problems the replayed messages caused (gaps, failed operations…), as the live hub saw them.
    public var problems: [HubProblem] { hub.problems }

    /// The `type` of the record the hub writes when a page stopped an action at its time limit.
    static let stoppedRecordType = "stopped"
    /// The `type` of the summary record of one chunk of a transfer.
    static let chunkRecordType = "chunk"

    /// Applies one record and describes what it changed in the mirrors, or `nil` when it
    /// changed nothing.
    @discardableResult
    public func apply(_ record: TraceRecord) -> String? {
        guard record.channel == TraceChannel.nativeBridge else { return nil }
        guard record.direction == .webToNative else { return Self.describeOutgoing(record) }
        // The hub writes this record itself when a page stops an action; it is not a message
        // the page sent, so it is not fed back (the resync that followed it is). A `chunk`
        // record is only a summary of one piece of a transfer (PROTOCOL.md A.11); the message
        // the chunks rebuilt is recorded whole after them, and that one is fed back.
        guard record.type != Self.stoppedRecordType, record.type != Self.chunkRecordType else { return nil }
        if !pages.contains(record.engine) {
            pages.insert(record.engine)
            hub.attachOffline(ReplayPage(pageID: record.engine))
        }
        let before = record.store.flatMap { (hub.state(of: $0), hub.version(of: $0)) }
        let problemsBefore = hub.problems.count
        hub.receive(record.message, from: record.engine)
        var lines: [String] = []
        if let store = record.store {
            let after = (hub.state(of: store), hub.version(of: store))
            if before?.1 != after.1 {
                lines.append(Self.describeChange(store: store, record: record, state: after.0))
            }
        }
        if record.type == StoreMessageType.actionResult.rawValue, let message = try? StoreMessage(text: record.message) {
            switch message.payload["ok"] {
            case .bool(true)?: lines.append("result: \(Self.abbreviated((message.payload["value"] ?? .null).jsonText()))")
            default:
                let error = message.payload["error"]?.objectValue
                lines.append("failed: \(error?["code"]?.stringValue ?? "?"): \(error?["message"]?.stringValue ?? "")")
            }
        }
        // Replayed results answer no dispatch of this hub: that is expected, not a problem.
        for problem in hub.problems.dropFirst(problemsBefore) {
            if case .unmatchedResult = problem.kind { continue }
            lines.append("! \(problem)")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Replays `records` up to and including step `until` (all when `nil`); returns the mirrors.
    public static func mirrors(after records: [TraceRecord], until: Int? = nil) -> [String: JSONValue] {
        let replay = TraceReplay()
        for record in records where until.map({ record.step <= $0 }) ?? true { replay.apply(record) }
        return replay.mirrors
    }

    static func describeOutgoing(_ record: TraceRecord) -> String? {
        guard record.type == StoreMessageType.dispatchAction.rawValue, let value = try? JSONValue(parsing: record.message),
              let action = value["payload"]?["action"]?.stringValue
        else { return nil }
        let args = value["payload"]?["args"]?.arrayValue ?? []
        return "dispatch \(record.store ?? "?").\(action)(\(abbreviated(args.map { $0.jsonText() }.joined(separator: ", "))))"
    }

    static func describeChange(store: String, record: TraceRecord, state: JSONValue?) -> String {
        guard let state else { return "\(store): removed" }
        guard record.type == StoreMessageType.applyMutation.rawValue,
              let message = try? StoreMessage(text: record.message),
              case .success(let mutations)? = message.mutations
        else {
            return "\(store) := \(Self.abbreviated(state.jsonText()))"
        }
        var parts: [String] = []
        for mutation in mutations {
            for op in mutation.ops {
                switch op {
                case .set(let path, let value): parts.append("\(store).\(path.dotted) = \(abbreviated(value.jsonText()))")
                case .delete(let path): parts.append("delete \(store).\(path.dotted)")
                case .splice(let path, let index, let deleteCount, let items):
                    parts.append("\(store).\(path.dotted).splice(\(index), \(deleteCount)\(items.isEmpty ? "" : ", " + abbreviated(items.map { $0.jsonText() }.joined(separator: ", "))))")
                }
            }
        }
        return parts.joined(separator: "\n")
    }

    static func abbreviated(_ text: String, limit: Int = 120) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}

/// A page in a replay: it never answers, and drops what the hub sends it.
final class ReplayPage: PageTransport {
    let pageID: String
    init(pageID: String) { self.pageID = pageID }
    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {}
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {}
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}

extension GlobalStateHub {
    /// Registers a page whose messages are fed with `receive(_:from:)` directly (replay).
    func attachOffline(_ page: any PageTransport) {
        state.withLock { state in
            if state.pages[page.pageID] == nil { state.pages[page.pageID] = AttachedPage(transport: page) }
        }
    }
}
