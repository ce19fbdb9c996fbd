import ArgumentParser
import Foundation
import JSEngine
import StyleTokens

/// `statehub theme check FILE` and `statehub theme css FILE`.
struct ThemeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Validate a theme contract, or print it as CSS custom properties.",
        subcommands: [Check.self, CSS.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Report every error and warning with its JSON path (exit 0, or 1 on errors).")

        @Argument(help: "A theme JSON file.")
        var file: String

        @Flag(help: "Print the issues as one JSON object on stdout.")
        var json = false

        func run() async throws {
            do { try ScriptFile.requireReadable([file]) } catch { throw error.exit() }
            let report = ThemeCheck.run(URL(fileURLWithPath: file))
            if json {
                let issues: [JSONValue] = report.issues.map {
                    ["severity": .string($0.severity.rawValue), "path": .string($0.path), "message": .string($0.problem.message)]
                }
                let object: JSONValue = ["file": .string(file), "ok": .bool(report.isValid), "issues": .array(issues)]
                Output.raw(object.jsonText())
            } else {
                for line in report.lines { Output.line(line) }
            }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        }
    }

    struct CSS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "css", abstract: "Print the theme's stylesheet (exit 1 with the errors when it does not validate).")

        @Argument(help: "A theme JSON file.")
        var file: String

        func run() async throws {
            do { try ScriptFile.requireReadable([file]) } catch { throw error.exit() }
            let report = ThemeCheck.run(URL(fileURLWithPath: file))
            guard let theme = report.theme else {
                for line in report.lines { Output.error(line) }
                throw ExitCode(1)
            }
            FileHandle.standardOutput.write(Data(ThemeCSS.stylesheet(for: theme).utf8))
        }
    }
}
