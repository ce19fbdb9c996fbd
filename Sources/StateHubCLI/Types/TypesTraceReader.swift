import StateHub
import StateHubTypes
import Trace

/// What a trace teaches `statehub types` (docs/types.md, "Traces"): the state each store
/// message leads to (snapshots, and operations applied by the hub's own replay), and the
/// name and arguments of each `dispatch_action`.
///
/// One reader per trace file, fed its records in order (the file is streamed, never held whole).
struct TypesTraceReader {
    private let replay = TraceReplay()

    func observe(_ record: TraceRecord, into stores: inout [String: StoreObservations]) {
        guard record.channel == TraceChannel.nativeBridge else { return }
        if record.direction == .nativeToWeb {
            guard record.type == StoreMessageType.dispatchAction.rawValue,
                  let message = try? JSONValue(parsing: record.message),
                  let id = message["storeId"]?.stringValue ?? record.store,
                  let action = message["payload"]?["action"]?.stringValue
            else { return }
            var store = stores[id] ?? StoreObservations(id: id)
            store.observe(action: action, arguments: message["payload"]?["args"]?.arrayValue ?? [])
            stores[id] = store
            return
        }
        replay.apply(record)
        guard let id = record.store, let state = replay.mirror(of: id) else { return }
        // Only messages that carry state change it; an action result or an error does not.
        guard record.type == StoreMessageType.syncState.rawValue || record.type == StoreMessageType.applyMutation.rawValue else { return }
        var store = stores[id] ?? StoreObservations(id: id)
        store.observe(state: state)
        if let getters = replay.getters(of: id) { store.observe(getters: getters) }
        if let message = try? JSONValue(parsing: record.message) {
            // Writes made inside an action name it (PROTOCOL.md A.5.2 `action`).
            for mutation in message["payload"]?["mutations"]?.arrayValue ?? [] {
                if let action = mutation["action"]?.stringValue { store.mention(action: action) }
            }
            // A created store's parameter names (A.5.1 `actionParameters`; actions without
            // parameters are left out there).
            for (action, names) in message["payload"]?["actionParameters"]?.objectValue ?? [:] {
                guard let names = names.arrayValue else { continue }
                store.declare(action: action.string, parameters: names.map(\.stringValue))
            }
        }
        stores[id] = store
    }
}
