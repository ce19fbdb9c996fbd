import ArgumentParser
import Foundation
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

        func run() async throws {
            let report = ThemeCheck.run(URL(fileURLWithPath: file))
            for line in report.lines { Output.line(line) }
            if report.exitCode != 0 { throw ExitCode(report.exitCode) }
        }
    }

    struct CSS: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "css", abstract: "Print the theme's stylesheet (exit 1 with the errors when it does not validate).")

        @Argument(help: "A theme JSON file.")
        var file: String

        func run() async throws {
            let report = ThemeCheck.run(URL(fileURLWithPath: file))
            guard let theme = report.theme else {
                for line in report.lines { Output.error(line) }
                throw ExitCode(1)
            }
            FileHandle.standardOutput.write(Data(ThemeCSS.stylesheet(for: theme).utf8))
        }
    }
}
