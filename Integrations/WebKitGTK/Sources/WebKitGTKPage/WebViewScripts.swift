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
        if configuration.forwardsConsole {
            scripts.append(Script(path: "statehub:console", source: consoleScript, time: .documentStart))
        }
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

    /// The channel the console script posts on.
    static let consoleChannel = "statehubConsole"

    /// Forwards the page's console, uncaught errors and unhandled rejections to
    /// `consoleChannel` as `{"level", "text"}` JSON text; the console still does what it did.
    /// A constant: no page data in it. First of the document-start scripts, so it sees theirs.
    static let consoleScript = """
        (() => {
          const channel = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.\(consoleChannel);
          if (!channel) return;
          const show = (value) => {
            if (typeof value === 'string') return value;
            if (value instanceof Error) return String(value.stack ? value + '\\n' + value.stack : value);
            try { const json = JSON.stringify(value); return json === undefined ? String(value) : json; } catch (e) { return String(value); }
          };
          const post = (level, values) => {
            try { channel.postMessage(JSON.stringify({ level: level, text: values.map(show).join(' ') })); } catch (e) {}
          };
          for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
            const original = console[level];
            console[level] = function (...values) {
              post(level, values);
              return original.apply(this, values);
            };
          }
          addEventListener('error', (event) => post('error', ['uncaught: ' + (event.error instanceof Error ? show(event.error) : event.message)]));
          addEventListener('unhandledrejection', (event) => post('error', ['unhandled rejection: ' + show(event.reason)]));
        })();
        """

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

    /// The body `WebViewPage.replaceStyleSheet` calls with `{id, css}`: the document's one
    /// `<style id=…>` (made in `<head>` on first use, as page-shim.js does) gets `css` as its text.
    static let styleSheetBody = """
        let style = document.getElementById(id);
        if (!(style instanceof HTMLStyleElement)) {
          style = document.createElement('style');
          style.id = id;
          (document.head || document.documentElement).appendChild(style);
        }
        style.textContent = css;
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
