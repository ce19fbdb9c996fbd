import Foundation
import Synchronization

/// The source maps of the bundles this process loaded, by the path pages know them under,
/// and the rewriting of `PATH:LINE:COLUMN` in error text back to the original sources.
///
/// ``ModuleBundler`` registers each bundle's map (esbuild's `--sourcemap`) with the number of
/// lines it put before esbuild's output. ``Output`` passes every line it prints through
/// ``rewrite(_:)``, so error stacks, time-limit locations and `console.error(e.stack)` all
/// name the module's own lines: `bad.mjs:7:9`, not the bundle's `bad.mjs:17:11`. A place in
/// the wrapper around the module (no mapping) is printed as `bad.mjs (bundle wrapper, line 27)`.
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

    /// Remembers the map of the script loaded as `path`.
    func register(_ map: SourceMap, for path: String, lineOffset: Int) {
        entries.withLock { $0[path] = Entry(map: map, lineOffset: lineOffset, inputPath: path) }
    }

    /// `text` with every `PATH:LINE[:COLUMN]` of a registered path mapped to its source.
    /// O(text length × registered paths); nothing is done when no map is registered.
    func rewrite(_ text: String) -> String {
        let entries = entries.withLock { $0 }
        guard !entries.isEmpty else { return text }
        var result = text
        for (path, entry) in entries where result.contains(path + ":") {
            result = Self.rewrite(result, path: path, entry.map, lineOffset: entry.lineOffset, inputPath: entry.inputPath)
        }
        return result
    }

    private static func rewrite(_ text: String, path: String, _ map: SourceMap, lineOffset: Int, inputPath: String) -> String {
        var out = ""
        var rest = text[...]
        let marker = path + ":"
        while let found = rest.range(of: marker) {
            out += rest[..<found.lowerBound]
            var cursor = found.upperBound
            guard let lineNumber = number(in: rest, at: cursor) else {
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
            if let place = map.place(line: line - lineOffset, column: column) {
                out += "\(display(place.source, inputPath: inputPath)):\(place.line)" + (column == nil ? "" : ":\(place.column)")
            } else {
                // A line of the wrapper esbuild and the bundler add: no source line to name.
                out += "\(path) (bundle wrapper, line \(line))"
            }
            rest = rest[cursor...]
        }
        return out + rest
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
