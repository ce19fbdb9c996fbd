import SharedDocument
import SharedDocumentSync
import StateHub
import StateHubJSON
import Synchronization

/// A Pinia store whose state lives in a shared document (docs/sync.md §4): the store's
/// mutations become document changes, and changes from other replicas enter the store through
/// the hub (a forwarded `apply_mutation`, applied with the store's own `$patch`), never echoed.
///
/// ```swift
/// let board = try await SyncedDocument.open("board-alpha", store: documents, configuration: sync)
/// let binding = try await SharedStore.bind(hub: page.hub, store: "board", document: board)
/// ```
///
/// On binding, a document whose root map has content sets the store's state; an empty one takes
/// the store's current state. Edits made while offline merge when the document reconnects: the
/// document is the source of truth, the store follows it.
public final class SharedStore: Sendable {
    public let storeId: String
    /// The document's root map that holds the state.
    public let root: String
    private let tasks: Mutex<[Task<Void, Never>]>
    private let recordedProblems = Mutex<[String]>([])

    /// Binds the store `storeId` (hosted by a page attached to `hub`) to the root map `root`
    /// (default: the store id) of `document`.
    /// - Throws: ``SharedStoreError`` when no page hosts the store, or the first copy fails.
    public static func bind(hub: GlobalStateHub, store storeId: String, document: SyncedDocument, root: String? = nil) async throws -> SharedStore {
        guard let current = hub.state(of: storeId) else {
            throw SharedStoreError("store \"\(storeId)\" is not hosted by any attached page: create it (useStore) before binding")
        }
        let root = root ?? storeId
        let tag = "shared-store:\(storeId)"
        // Subscribed before the first copy, so no change between the two is missed.
        let storeChanges = hub.changes(of: storeId)
        let documentChanges = await document.changes()
        let documentState = try await state(of: document, root: root)
        if case .object(let members) = documentState, !members.isEmpty {
            try hub.write(store: storeId, ops: [.set(path: [], value: documentState)], type: tag)
        } else {
            try await document.transact(origin: tag) { try $0.apply(.set(path: [], value: current), root: root) }
        }
        let binding = SharedStore(storeId: storeId, root: root)
        let toDocument = Task { [weak binding] in
            var version: Int?
            for await change in storeChanges {
                defer { version = change.version }
                switch change.kind {
                case .mutations(let mutations):
                    let ops = mutations.filter { $0.type != tag }.flatMap(\.ops)
                    if let version, change.version != version + 1 {
                        // The change stream dropped some (a slow consumer): copy what differs.
                        await binding?.reconcile(document, with: change.state, tag: tag)
                    } else if !ops.isEmpty {
                        do {
                            try await document.transact(origin: tag) { document in
                                for op in ops { try document.apply(op, root: root) }
                            }
                        } catch {
                            binding?.record("a store change did not apply to the document (\(error)); copied what differs")
                            await binding?.reconcile(document, with: change.state, tag: tag)
                        }
                    }
                case .snapshot(let reason) where reason == "created":
                    // A new instance of the store (a reload): the document holds the state.
                    let state = try? await state(of: document, root: root)
                    if let state, state != change.state {
                        do { try hub.write(store: storeId, ops: [.set(path: [], value: state)], type: tag) } catch { binding?.record("\(error)") }
                    }
                case .snapshot(let reason) where reason != "current":
                    // The page resent its state (a resync): the store is the truth for it.
                    await binding?.reconcile(document, with: change.state, tag: tag)
                default:
                    break
                }
            }
        }
        let fromDocument = Task { [weak binding] in
            for await change in documentChanges where change.origin != tag {
                let ops = change.operations.compactMap { operation -> MutationOp? in
                    let op = operation.storeOp
                    guard op.path.first == .key(root) else { return nil }
                    return op.droppingFirstStep
                }
                guard !ops.isEmpty else { continue }
                do {
                    try hub.write(store: storeId, ops: ops, type: tag)
                } catch {
                    binding?.record("a document change did not apply to the store (\(error)); the store was set from the document")
                    if let state = try? await state(of: document, root: root) {
                        try? hub.write(store: storeId, ops: [.set(path: [], value: state)], type: tag)
                    }
                }
            }
        }
        binding.tasks.withLock { $0 = [toDocument, fromDocument] }
        return binding
    }

    /// The document's root map as the store's JSON.
    private static func state(of document: SyncedDocument, root: String) async throws -> JSONValue {
        try await document.transact { try $0.map(root).toJSON().storeJSON }
    }

    private init(storeId: String, root: String) {
        self.storeId = storeId
        self.root = root
        self.tasks = Mutex([])
    }

    /// What could not be mirrored one way or the other, oldest first (each was then repaired by
    /// copying the whole state the other way).
    public var problems: [String] { recordedProblems.withLock { $0 } }

    /// Stops following: later changes on either side stay there.
    public func unbind() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    deinit { unbind() }

    private func record(_ problem: String) {
        recordedProblems.withLock { $0.append(problem) }
    }

    /// Makes the document's root equal `state`, touching only the top-level keys that differ
    /// (so concurrent edits of the other keys are kept).
    private func reconcile(_ document: SyncedDocument, with state: JSONValue?, tag: String) async {
        guard case .object(let members)? = state else { return }
        let root = self.root
        do {
            try await document.transact(origin: tag) { document in
                let top = try document.map(root)
                let keep = Set(members.keys.map(\.string))
                for key in top.keys where !keep.contains(key) { try top.delete(key) }
                for (key, value) in members where try top.get(key.string)?.storeJSON != value {
                    try SharedDocument.write(value, to: top, key: key.string)
                }
            }
        } catch {
            record("copying the store's state to the document failed: \(error)")
        }
    }
}

extension MutationOp {
    /// The same operation one level down (the document's root name removed from its path).
    var droppingFirstStep: MutationOp {
        switch self {
        case .set(let path, let value): .set(path: Array(path.dropFirst()), value: value)
        case .delete(let path): .delete(path: Array(path.dropFirst()))
        case .splice(let path, let index, let deleteCount, let items): .splice(path: Array(path.dropFirst()), index: index, deleteCount: deleteCount, items: items)
        }
    }
}
