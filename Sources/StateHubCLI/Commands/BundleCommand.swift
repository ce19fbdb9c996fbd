import ArgumentParser
import Foundation

/// `statehub bundle IN -o OUT`: an ES module as one classic script a page can load.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Bundle an ES module (and what it imports) into one classic script with esbuild.",
        discussion: """
            'pinia', 'vue' and '@vue/reactivity' imports read the runtime's globals \
            (defineStore, ref, computed, …); other imports are bundled. The output loads with \
            `statehub run`/`eval`, HostedPage bundles or any page that has the runtime. \
            Needs Debian's esbuild (apt-get install esbuild). Exit 2 for an unreadable input \
            or a missing esbuild, 1 when esbuild reports errors.
            """
    )

    @Argument(help: "The ES module to bundle.")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the classic script (default: stdout).")
    var output: String?

    func run() async throws {
        do { _ = try ScriptFile.readAll([input]) } catch { throw error.exit() }
        let text: String
        do { text = try ModuleBundler.bundle(path: input) } catch {
            Output.error(error.description)
            if case .esbuildMissing = error { throw ExitCode(2) }
            throw ExitCode(1)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do { try text.write(toFile: output, atomically: true, encoding: .utf8) } catch {
            throw CLIError.badArgument("cannot write \(output): \(error.localizedDescription)").exit()
        }
    }
}
