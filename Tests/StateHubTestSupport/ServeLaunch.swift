import Foundation

/// A `statehub serve` process started on a free port (`--port 0`): the launch both the CLI's
/// serve tests and the sync server's kill -9 test need.
public struct ServeLaunch: Sendable {
    public let process: Process
    /// `http://127.0.0.1:PORT`, from the line the server prints once it listens.
    public let base: URL
    /// The server's stdout and stderr, after the line that named the port.
    public let output: Pipe

    public var port: Int { base.port ?? 0 }

    /// Runs `statehub serve ARGUMENTS` (with `environment` added to this process's) and waits
    /// for `statehub: serving on URL`. Throws, with everything it printed, when it exits first.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeLaunch {
        guard let binary = StatehubExecutable.url else {
            throw TestSupportError("no statehub binary beside \(CommandLine.arguments[0]): build it first (swift build --build-tests)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        while !(text.range(of: "serving on ").map { text[$0.upperBound...].contains("\n") } ?? false) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: "serving on "),
              let url = URL(string: String(text[range.upperBound...].prefix { !$0.isNewline })), url.port != nil else {
            process.terminate()
            throw TestSupportError("statehub serve did not start: \(text)")
        }
        return ServeLaunch(process: process, base: url, output: output)
    }
}
