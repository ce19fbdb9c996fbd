import ArgumentParser
import Foundation
import Logging
import StateHubServer

/// `statehub bench http-baseline --port N` (hidden): the bare Hummingbird server that
/// `scripts/bench-server.sh` measures first, so every route's throughput is a ratio to the HTTP
/// stack alone in the same run. A subcommand of the same binary rather than its own executable:
/// the same build, flags and event-loop setup as `statehub serve`, and nothing more to build.
/// `--parts` adds pieces of `serve`'s stack (`HTTPBaselineParts`) for `bench-server.sh variants`.
struct HTTPBaselineBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http-baseline",
        abstract: "Serve the bare Hummingbird baseline of scripts/bench-server.sh (GET /healthz).",
        shouldDisplay: false)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8081

    @Option(help: "Parts of serve's stack to add, comma-separated: ws, head-guards, body-guard, cap, middleware, metrics, logger, router, hb-metrics, mw-metrics, mw-log, mw-cors.")
    var parts = ""

    @Option(help: "A data folder (SQLite) for the parts that need a server (ws, head-guards, router).")
    var data: String?

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0…65535") }
        let parts: HTTPBaselineParts
        switch HTTPBaselineParts.parse(self.parts) {
        case .success(let parsed): parts = parsed
        case .failure(let error): throw ValidationError("--parts: \(error)")
        }
        // As `statehub serve` does, before any server task starts.
        StateHubServer.runConcurrencyOnEventLoops()
        var logger = Logger(label: "statehub.http-baseline")
        logger.logLevel = .error
        let host = host
        let storage = data.map { StorageLocation.sqlite(directory: URL(fileURLWithPath: $0)) }
        try await StateHubServer.serveHTTPBaseline(host: host, port: port, parts: parts, storage: storage,
                                                   logger: logger) { port in
            Output.line("statehub: baseline serving on \(ServerURL.listening(host: host, port: port))")
        }
    }
}
