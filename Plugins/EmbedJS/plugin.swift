import Foundation
import PackagePlugin

/// Turns every file under the package's `js/` folder into Swift string constants.
///
/// The folder itself is declared as an input as well as each file: SwiftPM then
/// reruns the command when a file is added or deleted, not only when one changes.
@main
struct EmbedJS: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let jsFolder = context.package.directoryURL.appending(path: "js")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedJS.swift")
        var inputs = [jsFolder]
        if let walker = FileManager.default.enumerator(at: jsFolder, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker {
                let isFile = (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) ?? false
                if isFile { inputs.append(url) }
                else { inputs.append(url) } // sub-folders too, for added and deleted files
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding js/ into \(target.name)",
                executable: try context.tool(named: "EmbedJSTool").url,
                arguments: [jsFolder.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
