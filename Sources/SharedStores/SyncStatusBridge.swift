import CapabilityBridge
import SharedDocumentSync
import StateHubJSON
import Synchronization

/// Shows synced documents' status to pages through the capability bridge (docs/sync.md §3.4):
/// the framework action `getSyncStatus` and the event `syncStatusChanged` (docs/PROTOCOL.md
/// B.3, B.4).
///
/// ```swift
/// let statuses = SyncStatusBridge(bridge: page.bridge)
/// await statuses.add(board)
/// ```
///
/// Events follow each document's `SyncedDocument.statusUpdates()`, which keeps only the newest
/// status for a slow consumer: a page may miss an intermediate status, never the last one.
public final class SyncStatusBridge: Sendable {
    private let bridge: BridgeHost
    private let registry = Registry()

    /// Shared with the bridge handler, which outlives no one: it only reads.
    private final class Registry: Sendable {
        let documents = Mutex<[String: Watched]>([:])
    }

    private struct Watched: Sendable {
        let document: SyncedDocument
        let forwarding: Task<Void, Never>
    }

    public init(bridge: BridgeHost) {
        self.bridge = bridge
        let registry = self.registry
        bridge.registerFramework("getSyncStatus", payload: Request.self, result: JSONValue.self) { request, _ in
            guard let document = registry.documents.withLock({ $0[request.document]?.document }) else {
                let known = registry.documents.withLock { $0.keys.sorted() }
                throw BridgeError(.badPayload, "getSyncStatus: payload.document: no synced document named \"\(request.document)\""
                    + (known.isEmpty ? " (none is)" : " (known: \(known.joined(separator: ", ")))"))
            }
            return Self.data(document.name, await document.currentStatus)
        }
    }

    struct Request: Decodable, Sendable {
        var document: String
    }

    /// Makes `document` known to pages and forwards its status changes to every attached page
    /// until ``remove(_:)`` or the document's `SyncedDocument.close()`. Adding a document with
    /// the same name replaces the earlier one.
    public func add(_ document: SyncedDocument) async {
        let bridge = self.bridge
        let updates = await document.statusUpdates()
        let forwarding = Task {
            var first = true
            for await status in updates {
                // The first element is the status at the time of adding: pages ask for that one.
                if first {
                    first = false
                    continue
                }
                let data = Self.data(document.name, status)
                for page in bridge.pageIDs { try? bridge.sendEvent("syncStatusChanged", data: data, toPage: page) }
            }
        }
        let replaced = registry.documents.withLock { $0.updateValue(Watched(document: document, forwarding: forwarding), forKey: document.name) }
        replaced?.forwarding.cancel()
    }

    /// Forgets the document named `name`: pages can no longer ask for it and hear no more changes.
    public func remove(_ name: String) {
        registry.documents.withLock { $0.removeValue(forKey: name) }?.forwarding.cancel()
    }

    static func data(_ name: String, _ status: SyncStatus) -> JSONValue {
        var fields: JSONValue.ObjectMembers = [
            "document": .string(name),
            "status": .string(status.state.rawValue),
            "pendingUpdates": .number(Double(status.pendingUpdates)),
        ]
        if let problem = status.lastProblem { fields["lastProblem"] = .string(problem) }
        return .object(fields)
    }

    deinit {
        for watched in registry.documents.withLock({ Array($0.values) }) { watched.forwarding.cancel() }
    }
}
