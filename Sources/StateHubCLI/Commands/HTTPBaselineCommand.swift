import ArgumentParser
import Logging
import StateHubServer

/// `statehub bench http-baseline --port N` (hidden): the bare Hummingbird server that
/// `scripts/bench-server.sh` measures first, so every route's throughput is a ratio to the HTTP
/// stack alone in the same run. A subcommand of the same binary rather than its own executable:
/// the same build, flags and event-loop setup as `statehub serve`, and nothing more to build.
struct HTTPBaselineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-baseline",
        abstract: "Serve the bare Hummingbird baseline of scripts/bench-server.sh (GET /healthz).",
        shouldDisplay: false)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8081

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0…65535") }
        // As `statehub serve` does, before any server task starts.
        StateHubServer.runConcurrencyOnEventLoops()
        var logger = Logger(label: "statehub.http-baseline")
        logger.logLevel = .error
        let host = host
        try await StateHubServer.serveHTTPBaseline(host: host, port: port, logger: logger) { port in
            Output.line("statehub: baseline serving on http://\(host):\(port)")
        }
    }
}
