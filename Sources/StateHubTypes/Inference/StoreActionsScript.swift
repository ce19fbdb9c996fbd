import StateHubJSON

/// The script `statehub types` evaluates in a page to learn each store's actions and their
/// declared parameter names (docs/types.md, "Actions"), and the reading of its answer.
public enum StoreActionsScript {
    /// For each store of the active Pinia, each action of `_hmrPayload` (our runtime and
    /// Pinia's development builds fill it) with the names of its parameters, read from the
    /// function's source for plain lists (`(item, qty = 1)`); `null` for a position it cannot
    /// name (a destructured parameter).
    public static let source = """
        (function () {
          var pinia = typeof getActivePinia === 'function' && getActivePinia();
          var out = {};
          if (!pinia || !pinia._s) return out;
          var toText = Function.prototype.toString;
          function names(fn) {
            var text;
            try { text = toText.call(fn); } catch (e) { return []; }
            var arrow = /^\\s*(?:async\\s+)?([A-Za-z_$][\\w$]*)\\s*=>/.exec(text);
            if (arrow) return [arrow[1]];
            var head = /^[^(]*\\(([^)]*)\\)/.exec(text);
            if (!head || head[1].trim() === '') return [];
            return head[1].split(',').map(function (part) {
              var name = part.replace(/\\/\\*[\\s\\S]*?\\*\\//g, '').split('=')[0].trim();
              return /^(\\.\\.\\.)?[A-Za-z_$][\\w$]*$/.test(name) ? name : null;
            });
          }
          pinia._s.forEach(function (store, id) {
            var actions = (store && store._hmrPayload && store._hmrPayload.actions) || {};
            var entry = {};
            Object.keys(actions).forEach(function (name) { entry[name] = names(actions[name]); });
            out[id] = entry;
          });
          return out;
        })()
        """

    /// Store id → action name → parameter names, from what ``source`` evaluated to.
    public static func parse(_ value: JSONValue?) -> [String: [String: [String?]]] {
        guard case .object(let stores)? = value else { return [:] }
        var out: [String: [String: [String?]]] = [:]
        for (id, actions) in stores {
            var entry: [String: [String?]] = [:]
            for (name, parameters) in actions.objectValue ?? [:] {
                entry[name.string] = (parameters.arrayValue ?? []).map(\.stringValue)
            }
            out[id.string] = entry
        }
        return out
    }

    /// Observations of every store from a page's answers: the actions ``source`` found and
    /// each store's mirror, as `statehub types` gathers them.
    public static func observations(actions: [String: [String: [String?]]], mirrors: [String: JSONValue],
                                     getters: [String: JSONValue] = [:]) -> [String: StoreObservations] {
        var stores: [String: StoreObservations] = [:]
        for (id, declared) in actions {
            var store = stores[id] ?? StoreObservations(id: id)
            for (name, parameters) in declared { store.declare(action: name, parameters: parameters) }
            stores[id] = store
        }
        for (id, state) in mirrors {
            var store = stores[id] ?? StoreObservations(id: id)
            store.observe(state: state)
            if let values = getters[id] { store.observe(getters: values) }
            stores[id] = store
        }
        return stores
    }
}
