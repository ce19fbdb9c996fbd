import Foundation
import JSEngine

/// Turns ES-module sources into one classic script with esbuild (Debian's `esbuild`).
///
/// `pinia`, `vue` and `@vue/reactivity` imports are left external and mapped to the
/// runtime's globals: esbuild turns them into `require("pinia")`, and the bundle is wrapped
/// in a function whose `require` answers `globalThis` for those names, so
/// `import { defineStore } from 'pinia'` reads the runtime's `defineStore` and nothing leaks
/// into the page's globals. Other bare imports are bundled from `NODE_PATH` as esbuild
/// finds them. esbuild also writes a source map (`--sourcemap=inline`, taken off the end of
/// its output), which ``bundle(path:sourceURL:)`` hands to the engine and ``SourceMaps``, so
/// errors name the module's own lines.
enum ModuleBundler {
    static let mappedModules = ["pinia", "vue", "@vue/reactivity"]

    static let banner = "(function (require) {"
    static var footer: String {
        let names = mappedModules.map { "'\($0)'" }.joined(separator: ", ")
        return "})(function (name) { if ([\(names)].indexOf(name) >= 0) return globalThis; throw new Error('statehub: cannot import ' + name + ' in a page (only \(mappedModules.joined(separator: ", ")) map to the runtime; bundle the rest)'); });"
    }

    /// Whether `file` needs bundling: `.mjs` / `.ts` / `.mts`, or import/export lines.
    static func needsBundling(_ file: ScriptFile) -> Bool {
        let lower = file.path.lowercased()
        if lower.hasSuffix(".mjs") || lower.hasSuffix(".ts") || lower.hasSuffix(".mts") { return true }
        return ModuleSyntax.looksLikeModule(file.source)
    }

    /// The esbuild executable: `$STATEHUB_ESBUILD`, else `esbuild` on `PATH`.
    static func esbuildPath() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["STATEHUB_ESBUILD"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/esbuild"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let missingHint = "esbuild is not installed: ES modules (import/export) are bundled with it. Install it with `apt-get install esbuild` (Debian/Ubuntu; scripts/ensure-deps.sh does), or bundle the file yourself as an IIFE."

    /// Lines the wrapper puts before esbuild's output (the banner's).
    static let bannerLines = 1

    /// Bundles the module at `path` into one classic script, to be evaluated under `sourceURL`
    /// (the name the page's stacks give it, which must not be `path` itself: see
    /// ``SourceMaps``). esbuild's map is registered with ``SourceMaps`` under `sourceURL`, so
    /// text the page prints is rewritten, and returned as a `ScriptLineMap` for the engine,
    /// so what the engine reports (stops, errors, problems, traces) names the module's own
    /// lines; `nil` when esbuild wrote no map.
    ///
    /// - Throws: ``BundleError``.
    static func bundle(path: String, sourceURL: String) throws(BundleError) -> (code: String, lineMap: ScriptLineMap?) {
        let bundled = try bundleWithMap(path: path, sourcesContent: false)
        guard let map = bundled.sourceMap else { return (bundled.code, nil) }
        SourceMaps.shared.register(map, for: sourceURL, lineOffset: bannerLines, inputPath: path)
        return (bundled.code, SourceMaps.shared.lineMap(for: sourceURL))
    }

    /// Bundles the module at `path`; also returns esbuild's own source map (version 3 JSON)
    /// of the result, its mappings shifted one line for the wrapper's first line, `nil` when
    /// esbuild wrote none, and the same map decoded for the unshifted output. `sourcesContent`
    /// embeds the sources in the map.
    static func bundleWithMap(path: String, sourcesContent: Bool) throws(BundleError) -> (code: String, map: JSONValue?, sourceMap: SourceMap?) {
        guard let esbuild = esbuildPath() else { throw .esbuildMissing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: esbuild)
        process.arguments = [path, "--bundle", "--format=iife", "--log-level=error", "--charset=utf8",
                             "--target=es2020", "--sourcemap=inline", "--sources-content=\(sourcesContent)"] + mappedModules.map { "--external:\($0)" }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch { throw .esbuildFailed(path: path, output: "\(error)") }
        // Read both pipes before waiting, so a large bundle cannot block esbuild on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var stderrData = Data()
        group.enter()
        DispatchQueue.global().async {
            stderrData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .esbuildFailed(path: path, output: String(decoding: stderrData, as: UTF8.self))
        }
        var code = String(decoding: stdoutData, as: UTF8.self)
        var raw: JSONValue?
        var decoded: SourceMap?
        if let taken = takeSourceMap(code) {
            code = taken.code
            decoded = taken.map
            raw = taken.json
        }
        // One generated line with no mappings (a leading `;`) for the banner.
        if case .object(var members)? = raw, let mappings = members["mappings"]?.stringValue {
            members["mappings"] = .string(";" + mappings)
            raw = .object(members)
        }
        return (banner + "\n" + code + footer + "\n", raw, decoded)
    }

    static let sourceMapPrefix = "//# sourceMappingURL=data:application/json;base64,"

    /// esbuild's output without its inline map comment, and the map (decoded, and as JSON);
    /// `nil` when there is none.
    static func takeSourceMap(_ code: String) -> (code: String, map: SourceMap, json: JSONValue)? {
        guard let comment = code.range(of: sourceMapPrefix, options: .backwards) else { return nil }
        let encoded = code[comment.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: encoded) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let map = SourceMap(json: text), let json = try? JSONValue(parsing: text) else { return nil }
        return (String(code[..<comment.lowerBound]), map, json)
    }

    /// `map` for a map file written at `mapPath`: `sources` (esbuild names them relative to
    /// the working directory) made relative to the map's folder, as the format reads them,
    /// and `file` naming the bundle.
    static func relocate(_ map: JSONValue, mapPath: String, bundlePath: String) -> JSONValue {
        guard case .object(var members) = map else { return map }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let folder = URL(fileURLWithPath: mapPath, relativeTo: cwd).standardizedFileURL.deletingLastPathComponent()
        if let sources = members["sources"]?.arrayValue {
            members["sources"] = .array(sources.map { source in
                guard let name = source.stringValue else { return source }
                let absolute = URL(fileURLWithPath: name, relativeTo: cwd).standardizedFileURL
                return .string(relativePath(absolute.pathComponents, from: folder.pathComponents))
            })
        }
        members["file"] = .string((bundlePath as NSString).lastPathComponent)
        return .object(members)
    }

    private static func relativePath(_ target: [String], from base: [String]) -> String {
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + target[common...]).joined(separator: "/")
    }
}

/// Why a module could not be bundled.
enum BundleError: Error, CustomStringConvertible {
    case esbuildMissing
    case esbuildFailed(path: String, output: String)

    var description: String {
        switch self {
        case .esbuildMissing: "statehub: " + ModuleBundler.missingHint
        case .esbuildFailed(let path, let output): "statehub: esbuild could not bundle \(path):\n" + output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
