import JSEngine
import StateHub

/// Errors about names, with what exists and the nearest name ("did you mean").
enum Suggestions {
    /// Loaded after the runtime: remembers every `defineStore` id, so a store defined but
    /// never created (no `useStore()` yet) can be told apart from a typo, and where it was
    /// defined (`__statehubStoreSites`: id → `URL:LINE:COLUMN` of the first frame outside
    /// StateHub's scripts), so a stop that cannot read the stack can name the store's file.
    static let definedStoresScript = """
        (function () {
          if (typeof globalThis.defineStore !== 'function') return;
          var define = globalThis.defineStore, ids = globalThis.__statehubDefinedStores = [];
          var sites = globalThis.__statehubStoreSites = {};
          function site() {
            var frames = String(new Error().stack || '').split('\\n');
            for (var i = 0; i < frames.length; i++) {
              var at = frames[i].indexOf('@'), place = at >= 0 ? frames[i].slice(at + 1) : frames[i];
              if (place.indexOf('statehub:') !== 0 && /:[0-9]+:[0-9]+$/.test(place)) return place;
            }
            return null;
          }
          globalThis.defineStore = function (idOrOptions) {
            var id = typeof idOrOptions === 'string' ? idOrOptions : (idOrOptions && idOrOptions.id);
            if (typeof id === 'string' && ids.indexOf(id) < 0) {
              ids.push(id);
              try { sites[id] = site(); } catch (e) {}
            }
            return define.apply(this, arguments);
          };
        })();
        """

    /// The file that defined each store (`defineStore`), as the CLI prints files (a bundled
    /// module's own path), from what ``definedStoresScript`` recorded.
    static func storeFiles(_ engine: JavaScriptEngine) async -> [String: String] {
        guard case .object(let sites)? = try? await engine.evaluate("globalThis.__statehubStoreSites || {}") else { return [:] }
        var files: [String: String] = [:]
        for (id, site) in sites {
            guard let site = site.stringValue, let place = RunReport.Failure.leadingPlace(SourceMaps.shared.rewrite(site)) else { continue }
            files[id.string] = place.file
        }
        return files
    }

    /// The first `--redact-argument` naming a store or action the page does not have, said with
    /// what exists and the nearest name; nil when every one matches. A typo would otherwise
    /// hide nothing and leave the secret in the trace with no sign. A store defined but not
    /// created yet has no action list to check, so only its name is checked.
    static func unmatchedRedactedArgument(_ specs: [String], engine: JavaScriptEngine) async -> String? {
        guard !specs.isEmpty else { return nil }
        let defined = (try? await engine.evaluate("globalThis.__statehubDefinedStores || []"))?.arrayValue?.compactMap(\.stringValue) ?? []
        for spec in specs {
            // TraceRedaction.add has already refused anything not STORE.ACTION:INDEX.
            guard let colon = spec.lastIndex(of: ":") else { continue }
            let parts = spec[..<colon].split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let (store, action) = (parts[0], parts[1])
            guard defined.contains(store) else {
                return "\(spec): no store \"\(store)\" is defined in the page, so it would hide nothing" + listing("stores", defined.sorted(), nearest: store)
            }
            guard let actions = await createdActions(of: store, engine: engine) else { continue }
            if !actions.contains(action) {
                return "\(spec): store \"\(store)\" has no action \"\(action)\", so it would hide nothing" + listing("actions", actions, nearest: action)
            }
        }
        return nil
    }

    static func explain(_ error: StateHubError, hub: GlobalStateHub, engine: JavaScriptEngine, timeLimit: Duration, stop: ScriptStop? = nil) async -> String {
        switch error {
        case .unknownStore(let store):
            let hosted = hub.storeIDs.sorted()
            let defined = (try? await engine.evaluate("globalThis.__statehubDefinedStores || []"))?.arrayValue?.compactMap(\.stringValue) ?? []
            // Created, yet not hosted: the hub refused it; "not created" would send people the wrong way.
            if await RunCommand.storesInPage(engine).contains(store) {
                return "store \"\(store)\" was created in the page, but the hub has no mirror of it: " + whyNotMirrored(store, hub: hub)
            }
            if defined.contains(store) {
                return "store \"\(store)\" is defined but not created: call its useStore() (e.g. `use\(store.prefix(1).uppercased())\(store.dropFirst())Store()`) in a script before dispatching to it"
            }
            return "unknown store \"\(store)\"" + listing("stores", hosted, nearest: store)
        case .unknownAction(let store, let action):
            let actions = await createdActions(of: store, engine: engine) ?? []
            return "store \"\(store)\" has no action \"\(action)\"" + listing("actions", actions, nearest: action)
        case .stopped:
            return Report.describe(error, file: nil, timeLimit: timeLimit, source: nil, stop: stop)
        default:
            return String(describing: error).cutLine()
        }
    }

    /// The actions of the created store `store`, sorted; nil when the page has no such store
    /// created (or no Pinia).
    static func createdActions(of store: String, engine: JavaScriptEngine) async -> [String]? {
        let script = "(function(){var p=typeof getActivePinia==='function'&&getActivePinia();var s=p&&p._s.get(\(JSONValue.string(store).jsonText()));if(!s)return null;return Object.keys(s).filter(function(k){return k[0]!=='$'&&k[0]!=='_'&&typeof s[k]==='function'})})()"
        return (try? await engine.evaluate(script))?.arrayValue?.compactMap(\.stringValue).sorted()
    }

    /// Why a store the page created has no mirror: the problem the hub recorded about it (or
    /// about an unreadable message of its page, which names no store), else that nothing came.
    static func whyNotMirrored(_ store: String, hub: GlobalStateHub) -> String {
        let problems = hub.problems
        if let own = problems.first(where: { $0.storeId == store }) { return "the hub recorded a problem about it (\(own))" }
        if let unnamed = problems.first(where: { $0.storeId == nil }) { return "the hub refused a message it could not attribute to a store, likely its announcement (\(unnamed))" }
        return "its announcement never reached the hub (no problem was recorded)"
    }

    static func listing(_ what: String, _ names: [String], nearest name: String) -> String {
        guard !names.isEmpty else { return " (there are no \(what))" }
        var text = "; \(what): " + names.prefix(20).joined(separator: ", ") + (names.count > 20 ? ", …" : "")
        if let best = nearest(to: name, in: names) { text = "; did you mean \"\(best)\"?" + text.dropFirst(1) }
        return text
    }

    /// The name at the smallest edit distance, if it is close enough to be a typo.
    static func nearest(to name: String, in names: [String]) -> String? {
        let scored = names.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, name.count / 3) ? best.0 : nil
    }

    /// Levenshtein distance, O(n·m) with two rows.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
