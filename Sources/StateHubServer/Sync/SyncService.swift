import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import SharedDocument
import Synchronization

/// The sync endpoint of a `StateHubServer` (docs/sync.md): token checks, the WebSocket
/// connections, and the listener for other instances' updates on PostgreSQL.
public final class SyncService: Sendable {
    let hub: SyncHub
    let storage: ServerStorage
    public let configuration: SyncConfiguration
    let logger: Logger
    let budget: SyncOutgoingBudget
    /// How to close each connection served on its channel (``SyncWebSocketHandler``), by id: on
    /// graceful shutdown no connection task is there to close it (``SyncShutdownService``).
    private let open = Mutex(OpenConnections())
    /// ``SyncWebSocketHandler``s alive (created, not yet freed): back to zero once every
    /// connection has ended, or handlers leak (a handler holds its channel and any half-joined message).
    let liveHandlers = Atomic<Int>(0)
    /// The channels of connections served on their channel, weakly: none may outlive its
    /// connection (a channel kept is its pipeline, buffers and handlers, about 6 KB).
    let upgradedChannels = WeakChannelRegistry()
    /// Whether other instances' updates reach this one yet (PostgreSQL; docs/sync.md §2.4).
    let listener = SyncListenerState()

    private struct OpenConnections {
        var closers: [Int: @Sendable () -> Void] = [:]
        /// Waiting until no connection is open (graceful shutdown).
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    init(storage: ServerStorage, configuration: SyncConfiguration, clock: ServerClock, logger: Logger) {
        self.storage = storage
        self.configuration = configuration
        self.logger = logger
        budget = SyncOutgoingBudget(limit: configuration.maxQueuedBytesTotal)
        hub = SyncHub(storage: storage, configuration: configuration, clock: clock, logger: logger)
    }

    /// Waits until every open document has stored its updates and finished any compaction:
    /// call it after the server stopped accepting connections and before closing the storage.
    public func waitUntilStored() async { await hub.waitUntilAllStored() }

    /// Checks the name, the token (`?token=` or `Authorization: Bearer`) and the per-document
    /// cap; throws the `ServerError` the client gets before any upgrade.
    func grant(document: String, request: Request) async throws -> SyncGrant {
        // The router ignores empty path components (`/sync//d1`, `/sync/d1/`): the path must be exactly one name.
        guard DocumentName.isValid(document), request.uri.path == "/sync/" + document else {
            throw ServerError(.badRequest, "invalid-name", "a document name is 1–128 of [A-Za-z0-9._-], starting with a letter or digit")
        }
        let token = request.uri.queryParameters.get("token") ?? AdminAuthMiddleware<BasicRequestContext>.bearerToken(request.headers[.authorization])
        guard let token, !token.isEmpty, token.utf8.count <= 512 else { throw ServerError.unauthorized }
        let hash = AdminToken.hash(token)
        let grant: SyncGrant
        let acknowledgements = request.uri.queryParameters.get("ack") == "1"
        do {
            if try await storage.hasToken(hash: hash) {
                grant = SyncGrant(access: .readWrite, tokenID: nil, acknowledgements: acknowledgements)
            } else if let stored = try await storage.documentToken(hash: hash) {
                guard stored.document == document else {
                    throw ServerError(.forbidden, "forbidden", "this token is for another document")
                }
                grant = SyncGrant(access: stored.access, tokenID: stored.id, acknowledgements: acknowledgements)
            } else {
                throw ServerError.unauthorized
            }
        } catch let error as ServerError {
            throw error
        } catch {
            logger.error("sync: token lookup failed: \(error)")
            throw ServerError.storage
        }
        guard await hub.connectionCount(document) < configuration.maxConnectionsPerDocument else {
            throw ServerError(.serviceUnavailable, "too-many-connections", "document \(document) has \(configuration.maxConnectionsPerDocument) connections on this instance")
        }
        return grant
    }

    /// Runs one upgraded connection until either side closes it.
    func serve(document: String, grant: SyncGrant, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
               channel: any Channel) async throws {
        let connection = SyncConnection(
            id: hub.nextConnectionID(), document: document, access: grant.access, tokenID: grant.tokenID,
            wantsAcknowledgements: grant.acknowledgements,
            limits: configuration.connectionLimits,
            budget: budget, logger: logger, sink: SyncFrameWriter(channel: channel), closeChannel: { channel.close(promise: nil) })
        budget.register(connection)
        defer {
            // Whatever is still queued (a writer that failed) is dropped and leaves the budget.
            connection.cut(nil)
            budget.unregister(connection)
        }
        let host: SyncDocumentHost
        do {
            host = try await hub.attach(document, connection)
        } catch {
            logger.error("sync: loading \(document) failed: \(error)")
            try await outbound.close(SyncProtocolError.storage.webSocketCode, reason: "the document could not be loaded")
            return
        }
        var refusal: SyncProtocolError?
        var failure: (any Error)?
        // No writer task: the connection hands its queue to the channel itself (docs/sync.md §2.5).
        do {
            for try await message in inbound.messages(maxSize: configuration.maxMessageBytes) {
                guard case .binary(let buffer) = message else { refusal = .textFrame; break }
                let bytes = Array(buffer.readableBytesView)
                let decoded: SyncMessage
                do { decoded = try SyncMessage(decoding: bytes) } catch {
                    refusal = .malformedMessage("\(error)")
                    break
                }
                do throws(SyncProtocolError) { try await host.receive(decoded, from: connection) } catch {
                    refusal = error
                    break
                }
                await host.waitForRoom()
            }
        } catch {
            failure = error
        }
        await hub.detach(document, host, connection)
        // The client closed (or is gone): nothing is written after its close. A refusal's
        // close frame follows what was queued before it.
        connection.finish(discarding: refusal == nil)
        await connection.allWritten()
        if let refusal {
            logger.info("sync: closed a connection to \(document): \(refusal)")
            try? await outbound.close(refusal.webSocketCode, reason: refusal.closeReason)
        }
        if let failure {
            logger.info("sync: connection \(connection.id) to \(document) ended: \(failure)")
            throw failure
        }
    }
}

/// Closes every sync connection (`1001`) when the application shuts down gracefully: they are
/// served on their channels (``SyncWebSocketHandler``), so no connection task hears the shutdown.
struct SyncShutdownService: Service {
    let sync: SyncService

    func run() async throws {
        try? await gracefulShutdown()
        sync.closeAllConnections()
        // Until each has ended (the client's answering close, or the close timeout): the storage
        // closes after the application, and what the connections sent is stored before that.
        await sync.waitUntilNoConnection()
    }
}

extension SyncService {
    func registerOpen(_ id: Int, close: @escaping @Sendable () -> Void) { open.withLock { $0.closers[id] = close } }

    func unregisterOpen(_ id: Int) {
        let waiters = open.withLock { open -> [CheckedContinuation<Void, Never>] in
            open.closers[id] = nil
            guard open.closers.isEmpty else { return [] }
            defer { open.waiters = [] }
            return open.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sends every connection served on its channel a close frame (`1001`).
    func closeAllConnections() {
        for close in open.withLock({ Array($0.closers.values) }) { close() }
    }

    /// Waits until every connection served on its channel has ended.
    func waitUntilNoConnection() async {
        await withCheckedContinuation { continuation in
            let none = open.withLock { open -> Bool in
                if open.closers.isEmpty { return true }
                open.waiters.append(continuation)
                return false
            }
            if none { continuation.resume() }
        }
    }

    /// Connections to `document` on this instance now (attached or attaching).
    public func connectionCount(document: String) async -> Int { await hub.connectionCount(document) }

    /// Whether `document` is loaded in memory on this instance.
    public func isLoaded(document: String) async -> Bool { await hub.isLoaded(document) }

    /// Bytes waiting to be sent on this instance, each shared message counted once (docs/sync.md §2.5).
    public var queuedOutgoingBytes: Int { budget.queuedBytes }
}
