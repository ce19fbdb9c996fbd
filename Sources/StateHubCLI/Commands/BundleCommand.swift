import ArgumentParser
import Foundation
import JSEngine

/// `statehub bundle IN -o OUT`: an ES module as one classic script a page can load.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Bundle an ES module (and what it imports) into one classic script with esbuild.",
        discussion: """
            'pinia', 'vue' and '@vue/reactivity' imports read the runtime's globals \
            (defineStore, ref, computed, …); other imports are bundled. The output loads with \
            `statehub run`/`eval`, HostedPage bundles or any page that has the runtime. \
            --sourcemap writes esbuild's source map beside the output (OUT.map): browsers' \
            devtools and other tools read it; `run` and `eval` map error locations of modules \
            they bundle themselves, and do not read .map files of bundles given to them. \
            A missing output folder is created. Needs Debian's esbuild (apt-get install esbuild). Exit 2 for an unreadable input \
            or a missing esbuild, 1 when esbuild reports errors.
            """
    )

    @Argument(help: "The ES module to bundle.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the classic script (default: stdout); its folder is created if missing.")
    var output: String?

    @Flag(help: "Also write esbuild's source map (with the sources in it) to OUT.map, named by a sourceMappingURL comment at the end of OUT (needs -o).")
    var sourcemap = false

    func run() async throws {
        do { _ = try ScriptFile.readAll([input]) } catch { throw error.exit() }
        if sourcemap, output == nil { throw CLIError.badArgument("--sourcemap needs -o OUT: the map is written beside it, as OUT.map").exit() }
        var text: String
        let map: JSONValue?
        do { (text, map, _) = try ModuleBundler.bundleWithMap(path: input, sourcesContent: sourcemap) } catch {
            Output.error(error.description)
            if case .esbuildMissing = error { throw ExitCode(2) }
            throw ExitCode(1)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // Like esbuild's --outfile, a missing folder is created (`-o out/app.js` in a fresh clone).
        let folder = (output as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw CLIError.badArgument("cannot write \(output): the folder \(folder) is missing and could not be created: \(error.localizedDescription)").exit()
            }
        }
        if sourcemap {
            let mapPath = output + ".map"
            guard let map else {
                Output.error("statehub: esbuild wrote no source map for \(input)")
                throw ExitCode(1)
            }
            do {
                try ModuleBundler.relocate(map, mapPath: mapPath, bundlePath: output).jsonText().write(toFile: mapPath, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.badArgument("cannot write \(mapPath): \(error.localizedDescription)").exit()
            }
            text += "//# sourceMappingURL=\((mapPath as NSString).lastPathComponent)\n"
        }
        do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
            throw CLIError.badArgument("cannot write \(output): \(error.localizedDescription)").exit()
        }
    }
}
