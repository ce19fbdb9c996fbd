import Foundation
import JSEngine

/// A script named on the command line, read whole.
struct ScriptFile {
    let path: String
    let source: String
    /// The name the page knows the script by: `path`, or `PATH#bundle` for an ES module
    /// bundled with esbuild (``ModuleBundler``).
    var sourceURL: String
    /// Where a bundle's lines came from, for the engine.
    var lineMap: ScriptLineMap?

    init(path: String, source: String, sourceURL: String? = nil, lineMap: ScriptLineMap? = nil) {
        self.path = path
        self.source = source
        self.sourceURL = sourceURL ?? path
        self.lineMap = lineMap
    }

    /// Fails on the first path that is missing, a folder or not readable, without reading
    /// any (for commands that read a file themselves, with their own size cap).
    static func requireReadable(_ paths: [String]) throws(CLIError) {
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .unreadableFile(path: path, reason: "no such file")
            }
            guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "is a directory") }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw .unreadableFile(path: path, reason: "permission denied or unreadable")
            }
        }
    }

    /// Reads every path, failing on the first that is missing or unreadable.
    static func readAll(_ paths: [String]) throws(CLIError) -> [ScriptFile] {
        try paths.map { path throws(CLIError) in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .unreadableFile(path: path, reason: "no such file")
            }
            guard !isDirectory.boolValue else { throw .unreadableFile(path: path, reason: "is a directory") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadableFile(path: path, reason: "permission denied or unreadable")
            }
            guard let source = String(data: data, encoding: .utf8) else {
                throw .unreadableFile(path: path, reason: "not UTF-8 text")
            }
            return ScriptFile(path: path, source: source)
        }
    }
}
