import Foundation
import JSEngine
import Synchronization

/// The source maps of the bundles this process loaded, by the name pages know them under,
/// and the rewriting of `NAME:LINE:COLUMN` in error text back to the original sources.
///
/// A bundle of `bad.mjs` is evaluated under its own name, `bad.mjs#bundle`, never the
/// module's path: the engine maps what it reports itself (stops, errors, hub problems,
/// trace records: ``lineMap(for:)``), and text the page builds (an `Error`'s `stack` read by a
/// script, `console.error(e.stack)`, an action's failure) still names the bundle. ``Output``
/// passes every line it prints through ``rewrite(_:)``, and `--trace` each record
/// (``rewriteJSON(_:)``), so that text names the module's own lines too — `bad.mjs:7:9`,
/// not `bad.mjs#bundle:17:11` — and a place the engine already mapped (`bad.mjs:7`) is not
/// mapped a second time. A place in the wrapper around the module (no mapping) is printed
/// as `bad.mjs (bundle wrapper, line 27)`.
final class SourceMaps: Sendable {
    static let shared = SourceMaps()

    private struct Entry: Sendable {
        var map: SourceMap
        /// Lines before esbuild's output in the loaded script (the wrapper's first line).
        var lineOffset: Int
        /// The path the user gave, printed for the map's source that is this file.
        var inputPath: String
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Remembers the map of the script loaded as `name`, bundled from the file the user named
    /// `inputPath`.
    func register(_ map: SourceMap, for name: String, lineOffset: Int, inputPath: String) {
        entries.withLock { $0[name] = Entry(map: map, lineOffset: lineOffset, inputPath: inputPath) }
    }

    /// The engine's view of the map registered as `name`: each line of the loaded script
    /// (1-based) to its original file, as printed, and line. `nil` when none is registered.
    func lineMap(for name: String) -> ScriptLineMap? {
        guard let entry = entries.withLock({ $0[name] }) else { return nil }
        return ScriptLineMap { line, column in
            guard let place = entry.map.place(line: line - entry.lineOffset, column: column) else { return nil }
            return ScriptLineMap.Place(sourceURL: Self.display(place.source, inputPath: entry.inputPath), line: place.line,
                                       column: column == nil ? nil : place.column)
        }
    }

    /// The file the user named for a script loaded as `name` (`bad.mjs` for `bad.mjs#bundle`),
    /// or `name` itself when it is not a registered bundle.
    func inputPath(of name: String) -> String {
        entries.withLock { $0[name]?.inputPath } ?? name
    }

    /// `text` with every `NAME:LINE[:COLUMN]` of a registered name mapped to its source.
    /// O(text length × registered names); nothing is done when no map is registered.
    func rewrite(_ text: String) -> String {
        rewrite(text, json: false)
    }

    /// ``rewrite(_:)`` for JSON text (a trace record): a place whose original file name would
    /// need escaping in a JSON string is left as it is, so the text stays valid JSON.
    func rewriteJSON(_ text: String) -> String {
        rewrite(text, json: true)
    }

    private func rewrite(_ text: String, json: Bool) -> String {
        let entries = entries.withLock { $0 }
        guard !entries.isEmpty else { return text }
        var result = text
        // Longest name first, each only as a whole file token (``startsAToken(after:)``): `b.mjs#bundle:`
        // is not the end of `ab.mjs#bundle:17:24` nor of `sub/b.mjs#bundle:3`, and `ace.mjs#bundle`
        // cannot be read inside `sp ace.mjs#bundle`, which is mapped (and so gone) first.
        for (name, entry) in entries.sorted(by: { $0.key.count > $1.key.count }) where result.contains(name + ":") {
            result = Self.rewrite(result, path: name, entry.map, lineOffset: entry.lineOffset, inputPath: entry.inputPath, json: json)
        }
        return result
    }

    private static func rewrite(_ text: String, path: String, _ map: SourceMap, lineOffset: Int, inputPath: String, json: Bool) -> String {
        var out = ""
        var rest = text[...]
        let marker = path + ":"
        while let found = rest.range(of: marker) {
            out += rest[..<found.lowerBound]
            var cursor = found.upperBound
            guard startsAToken(after: out.last), let lineNumber = number(in: rest, at: cursor) else {
                out += rest[found]
                rest = rest[found.upperBound...]
                continue
            }
            let line = lineNumber.value
            cursor = lineNumber.end
            var column: Int?
            if cursor < rest.endIndex, rest[cursor] == ":", let columnNumber = number(in: rest, at: rest.index(after: cursor)) {
                column = columnNumber.value
                cursor = columnNumber.end
            }
            let replacement: String
            if let place = map.place(line: line - lineOffset, column: column) {
                replacement = "\(display(place.source, inputPath: inputPath)):\(place.line)" + (column == nil ? "" : ":\(place.column)")
            } else {
                // A line of the wrapper esbuild and the bundler add: no source line to name.
                replacement = "\(inputPath) (bundle wrapper, line \(line))"
            }
            if json, replacement.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\\" || $0.value < 0x20 }) {
                out += rest[found.lowerBound ..< cursor]
            } else {
                out += replacement
            }
            rest = rest[cursor...]
        }
        return out + rest
    }

    /// Whether a file name may start after `previous` (the text's start, a space, `@`, `(`, a
    /// quote…): not after a letter, digit or path character, where it would be the end of a
    /// longer name.
    private static func startsAToken(after previous: Character?) -> Bool {
        guard let previous else { return true }
        return !(previous.isLetter || previous.isNumber || "/\\._-~+".contains(previous))
    }

    private static func number(in text: Substring, at start: Substring.Index) -> (value: Int, end: Substring.Index)? {
        var end = start
        while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
        guard end > start, let value = Int(text[start ..< end]) else { return nil }
        return (value, end)
    }

    /// esbuild names sources relative to the working directory: the bundled file itself is
    /// printed as the user wrote it, others as esbuild named them.
    private static func display(_ source: String, inputPath: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = source.hasPrefix("/") ? source : (cwd as NSString).appendingPathComponent(source)
        let input = inputPath.hasPrefix("/") ? inputPath : (cwd as NSString).appendingPathComponent(inputPath)
        return (absolute as NSString).standardizingPath == (input as NSString).standardizingPath ? inputPath : source
    }
}
