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
        static let configuration = CommandConfiguration(
            abstract: "Report every error and warning, each with its JSON path and line:column, in one pass.",
            discussion: """
                Exit 0 when the theme is valid (warnings allowed), 1 when it has errors, 2 when \
                the file cannot be read. A JSON syntax error keeps the schema and value checks \
                from running: the summary line says so (`schemaChecked: false` in --json).
                """)

        @Argument(help: "A theme JSON file.")
        var file: String

        @Flag(help: "Print the issues as one JSON object on stdout.")
        var json = false

        func run() async throws {
            do { try ScriptFile.requireReadable([file]) } catch {
                if json {
                    // `--json` prints its object on every outcome (docs/cli.md).
                    let object: JSONValue = ["file": .string(file), "ok": false, "schemaChecked": false, "issues": [],
                                             "error": ["kind": "unreadable", "message": .string(error.description), "file": .string(file)]]
                    Output.raw(object.jsonText())
                }
                throw error.exit()
            }
            let report = ThemeCheck.run(URL(fileURLWithPath: file))
            if json {
                let issues: [JSONValue] = report.issues.map { issue in
                    var object: JSONValue.ObjectMembers = ["severity": .string(issue.severity.rawValue), "path": .string(issue.path)]
                    if let line = issue.line, let column = issue.column {
                        object["line"] = .number(Double(line))
                        object["column"] = .number(Double(column))
                    }
                    object["message"] = .string(issue.problem.message)
                    return .object(object)
                }
                let object: JSONValue = ["file": .string(file), "ok": .bool(report.isValid), "schemaChecked": .bool(report.schemaChecked),
                                         "issues": .array(issues)]
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
