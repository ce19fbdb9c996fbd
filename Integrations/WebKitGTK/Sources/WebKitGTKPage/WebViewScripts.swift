import CapabilityBridge
import StateHub

/// The user scripts a web view page gets, in injection order: the same files, from the same
/// embedded product (`JSSources`, through `StoreScripts` and `BridgeScripts`), that
/// `HostedPage` evaluates in an engine (docs/webview.md, "What is injected").
enum WebViewScripts {
    /// When a script runs in each load of the document.
    enum Time: Equatable {
        /// Before the document's own scripts (WebKit's document start).
        case documentStart
        /// When the document has been parsed (document end): the app's bundles.
        case documentEnd
    }

    struct Script {
        let path: String
        let source: String
        let time: Time
    }

    static func scripts(for configuration: WebViewPage.Configuration) throws -> [Script] {
        var scripts: [Script] = []
        if configuration.storeRuntime {
            // The configuration is typed (an enum and an integer): no page data in this source.
            scripts.append(Script(
                path: "statehub:config",
                source: "globalThis.StateHubSyncConfig = { flush: '\(configuration.flush.rawValue)', maxMessageBytes: \(configuration.maximumMessageBytes) }",
                time: .documentStart))
            scripts += StoreScripts.storeRuntime.map { Script(path: $0.name, source: $0.source, time: .documentStart) }
        }
        if configuration.bridgeScripts {
            scripts += try BridgeScripts.engineScripts().map { Script(path: $0.path, source: $0.source, time: .documentStart) }
        }
        scripts += configuration.bundles.map { Script(path: $0.path, source: $0.source, time: .documentEnd) }
        return scripts
    }

    /// The body of the function `PageTransport.send` calls with `{path, message, encoded}` as
    /// arguments (`webkit_web_view_call_async_javascript_function`): it finds the function at
    /// the dotted path as the engine does and calls it with the message. A constant: what
    /// native sends is only ever an argument. `false`: no function there.
    static let sendBody = """
        if (encoded !== '') message = JSON.parse(encoded);
        const names = path.split('.');
        const name = names.pop();
        let holder = globalThis;
        for (const n of names) {
          if (holder === null || holder === undefined) return false;
          holder = holder[n];
        }
        if (holder === null || holder === undefined) return false;
        const f = holder[name];
        if (typeof f !== 'function') return false;
        f.call(holder, message);
        return true;
        """

    /// Run in the UI process's own JavaScript context (not the page), on every string a page
    /// posts: the string itself when well formed, else with each lone surrogate as its JSON
    /// escape (`\ud800`), as the engine hands it over.
    static let wellFormedSource = #"""
        (s => s.isWellFormed() ? s : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
          c => '\\u' + c.charCodeAt(0).toString(16)))
        """#

    /// The body `WebViewPage.evaluate` calls with `{source}`: global code, as
    /// `webkit_web_view_evaluate_javascript` runs it, but its result is turned into JSON text
    /// in the page, so objects keep JavaScript's key order (WebKit's own transfer of a result
    /// to the UI process does not keep it).
    static let evaluateBody = """
        const value = (0, eval)(source);
        return value === undefined ? undefined : JSON.stringify(value);
        """

    /// Wraps the body of `WebViewPage.callAsyncFunction` so that its awaited result comes back
    /// as JSON text made in the page (key order kept). The body is code by definition; its
    /// arguments stay arguments.
    static func callBody(_ body: String) -> String {
        "const value = await (async () => {\n\(body)\n})();\nreturn value === undefined ? undefined : JSON.stringify(value);"
    }
}
