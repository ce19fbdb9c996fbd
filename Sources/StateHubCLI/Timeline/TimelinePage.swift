import JSEngine
import JSSources
import Trace

/// The timeline as one self-contained HTML page (no network, no external file): the steps as
/// embedded JSON, and the shared timeline script and style (js/timeline/, the very files the
/// console serves for its Traces screen) written inline, so the page and the console show a
/// trace with one implementation. The script groups the steps under their actions, filters by
/// store and channel, and rebuilds the whole state at the step the slider selects.
enum TimelinePage {
    static func html(for model: TimelineModel, title: String) throws(CLIError) -> String {
        guard let script = JSSources.file("timeline/timeline.js"), let style = JSSources.file("timeline/timeline.css") else {
            throw CLIError.badArgument("this build has no js/timeline/ (the timeline's script and style)")
        }
        let data = JSONValue.array(model.steps.map(\.json)).jsonText()
            .replacingOccurrences(of: "</", with: "<\\/")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        // Our own files: neither holds `</script` or `</style`, so they go inline as they are.
        return fill(["TITLE": escape(title), "STYLE": style, "SCRIPT": script, "DATA": data,
                     "PADDING": String(model.limits.paddingNulls)])
    }

    /// The template with each `@NAME@` replaced in one pass: text put in (a file name, the
    /// trace) is never searched for placeholders again.
    static func fill(_ values: [String: String]) -> String {
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "@") {
            out += rest[..<open]
            let after = rest.index(after: open)
            if let close = rest[after...].firstIndex(of: "@"), let value = values[String(rest[after..<close])] {
                out += value
                rest = rest[rest.index(after: close)...]
            } else {
                out += "@"
                rest = rest[after...]
            }
        }
        return out + rest
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let template = #"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>StateHub trace: @TITLE@</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { margin:0; font:13px/1.45 -apple-system, "Segoe UI", Roboto, sans-serif; color:#1d1d1f; background:#fbfbfd; }
  header { padding:10px 16px 0; background:#fff; }
  header h1 { font-size:15px; margin:0; }
  #view { padding:0 16px; background:#fff; }
  #view .statehub-timeline { --tl-height: calc(100vh - 96px); }
</style>
<style>
@STYLE@
</style></head>
<body>
<header><h1>StateHub trace — @TITLE@</h1></header>
<main id="view"></main>
<script>
@SCRIPT@
</script>
<script id="trace-data" type="application/json">@DATA@</script>
<script>
window.statehubTimeline = StateHubTimeline.mount(document.getElementById('view'),
  JSON.parse(document.getElementById('trace-data').textContent), { maxPaddingNulls: @PADDING@ });
</script>
</body></html>
"""#
}
