import ArgumentParser
import Foundation
import Hummingbird
import Logging
import StateHubServer

/// `statehub serve [--data DIR | --database postgres://…] [--port N] [--admin-token-file F]`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve micro-app manifests, bundles, the loader page, themes and the admin API (docs/server.md).",
        discussion: """
            Storage: SQLite in --data (default ./statehub-data) for one instance, or PostgreSQL with \
            --database (or STATEHUB_DATABASE_URL) for several. The first admin token comes from the \
            environment variable STATEHUB_ADMIN_TOKEN or the file named by --admin-token-file; it is \
            stored hashed and never logged. Stops gracefully on SIGINT or SIGTERM.
            """
    )

    @Option(help: "Data folder for the SQLite database.")
    var data: String?

    @Option(help: "PostgreSQL URL, postgres://user[:password]@host[:port]/database (or STATEHUB_DATABASE_URL).")
    var database: String?

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port, printed on start).")
    var port: Int = 8080

    @Option(help: "A file holding the first admin token (instead of STATEHUB_ADMIN_TOKEN).")
    var adminTokenFile: String?

    @Option(help: "The one browser origin allowed to call /admin/ (CORS).")
    var adminOrigin: String?

    @Option(help: "Largest version upload in bytes (bundle, stylesheet and base64 assets as JSON).")
    var maxUploadBytes: Int = 32 << 20

    @Option(help: "Seconds a connection may go without completing a request part (head, body chunk, end) before it is closed.")
    var idleTimeout: Double = 20

    @Option(help: "Seconds a request's body may take from its head to its end before the connection is closed.")
    var bodyTimeout: Double = 60

    @Option(help: "Open connections at most (default: the descriptor limit less 128, at most 10000).")
    var maxConnections: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Flag(help: "Also serve the example micro-app's data API, GET /api/v1/profile/{userId}.")
    var exampleApi = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let location: StorageLocation
        switch (data, database ?? environment["STATEHUB_DATABASE_URL"]) {
        case (.some, .some): throw CLIError.badArgument("give --data or --database, not both").exit()
        case (_, .some(let url)): location = .postgres(url: url)
        case (let folder, nil): location = .sqlite(directory: URL(fileURLWithPath: folder ?? "statehub-data"))
        }
        guard let level = Logger.Level(rawValue: logLevel) else { throw CLIError.badArgument("unknown --log-level \(logLevel)").exit() }
        guard (0...65535).contains(port) else { throw CLIError.badArgument("--port must lie in 0…65535").exit() }
        guard idleTimeout.isFinite, (0.1...86_400).contains(idleTimeout) else {
            throw CLIError.badArgument("--idle-timeout must lie in 0.1…86400 seconds").exit()
        }
        guard bodyTimeout.isFinite, (0.1...86_400).contains(bodyTimeout) else {
            throw CLIError.badArgument("--body-timeout must lie in 0.1…86400 seconds").exit()
        }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw CLIError.badArgument("--max-connections must lie in 1…1000000").exit()
        }

        var token = environment["STATEHUB_ADMIN_TOKEN"]
        if let adminTokenFile {
            do {
                token = try String(contentsOfFile: adminTokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw CLIError.unreadableFile(path: adminTokenFile, reason: error.localizedDescription).exit()
            }
        }
        if let given = token, given.isEmpty { token = nil }

        // Before any server task starts: requests then run on the event loop that read them.
        StateHubServer.runConcurrencyOnEventLoops()
        var logger = Logger(label: "statehub.serve")
        logger.logLevel = level
        let host = host
        let exampleApi = exampleApi
        logger.info("opening \(location)")
        do {
            try await StateHubServer.serve(
                location: location, host: host, port: port, adminToken: token,
                configuration: ServerConfiguration(maxUploadBytes: maxUploadBytes, adminOrigin: adminOrigin,
                                                   idleTimeout: .milliseconds(Int(idleTimeout * 1000)),
                                                   maxConnections: maxConnections,
                                                   requestBodyTimeout: .milliseconds(Int(bodyTimeout * 1000))),
                logger: logger,
                addRoutes: { router in if exampleApi { ExampleProfileAPI.add(to: router) } },
                onRunning: { port in
                    // Tools read the URL to the end of the first line: the console goes on a line of its own.
                    Output.line("statehub: serving on \(ServerURL.listening(host: host, port: port))")
                    Output.line("statehub: console at \(ServerURL.listening(host: host, port: port))/console")
                })
        } catch let error as StorageError {
            Output.error("statehub: \(error)")
            throw ExitCode(1)
        }
    }
}

/// The seed micro-app's data API, as an example of an app's own routes beside the server's.
enum ExampleProfileAPI {
    static func add(to router: Router<BasicRequestContext>) {
        router.get("api/v1/profile/:userId") { _, context in
            guard let user = context.parameters.get("userId"), (1...128).contains(user.utf8.count),
                  user.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw HTTPError(.badRequest, message: "userId: 1–128 of [A-Za-z0-9_-]") }
            let body = #"{"userId":""# + user + #"","displayName":"User "# + user + #"","tier":"standard"}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
    }
}
