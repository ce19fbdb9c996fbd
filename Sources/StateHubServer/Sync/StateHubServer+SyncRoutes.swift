import Foundation
import Hummingbird
import HummingbirdWebSocket
import SharedDocument

extension StateHubServer {
    /// The router the WebSocket upgrade goes through: `GET /sync/{document}` (docs/sync.md §1.1).
    /// An upgrade it refuses (bad name, no token, another document's token, too many connections)
    /// is answered with the JSON problem by `UpgradeRefusalWriter`; a plain `GET` (no upgrade)
    /// reaches the HTTP router, whose `/sync/{document}` route answers with the same problem.
    public func makeSyncRouter() -> Router<SyncRequestContext> {
        let router = Router(context: SyncRequestContext.self)
        router.add(middleware: SyncUpgradeOutcomeMiddleware())
        let sync = self.sync
        router.ws("sync/:document", shouldUpgrade: { request, context in
            let document = context.parameters.get("document") ?? ""
            let grant: SyncGrant
            do {
                grant = try await sync.grant(document: document, request: request)
            } catch let error as ServerError {
                await UpgradeRefusalWriter.record(error, on: context.channel)
                throw error
            }
            context.grant.value.withLock { $0 = grant }
            // Served on the channel once upgraded (SyncWebSocketHandler), not by the task below.
            await SyncUpgradeTakeover.record(document: document, grant: grant, sync: sync, on: context.channel)
            return .upgrade([:])
        }, onUpgrade: { inbound, outbound, context in
            // Only on a channel without `SyncUpgradeTakeover` (an application not built by `makeApplication`).
            let document = context.requestContext.parameters.get("document") ?? ""
            guard let grant = context.requestContext.grant.value.withLock({ $0 }) else { return }
            try await sync.serve(document: document, grant: grant, inbound: inbound, outbound: outbound,
                                 channel: context.requestContext.channel)
        })
        return router
    }

    /// `GET /sync/{document}` without an upgrade: the problem that kept it from upgrading, or `426`.
    func addSyncRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("sync/:document") { request, context -> Response in
            _ = try await self.sync.grant(document: context.parameters.get("document") ?? "", request: request)
            throw ServerError(.init(code: 426, reasonPhrase: "Upgrade Required"), "upgrade-required",
                              "/sync/{document} is a WebSocket (y-websocket protocol, docs/sync.md)")
        }
    }

    /// Per-document tokens and a document's state (docs/sync.md §2.6); behind the admin token.
    func addSyncAdminRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("documents/:document/tokens") { request, context in
            let document = try Self.documentName(context)
            let body = try await Self.decode(DocumentTokenBody.self, request, context, limit: self.configuration.maxSmallBodyBytes)
            guard let access = DocumentAccess(rawValue: body.access) else {
                throw ServerError.badRequest("access: \"read\" or \"read-write\"")
            }
            let label = body.label ?? ""
            guard label.utf8.count <= 128 else { throw ServerError.badRequest("label: at most 128 bytes") }
            try AdminLabel.check(label, field: "label")
            let token = DocumentToken.generate()
            let author = try Self.author()
            let id = try await self.write {
                try await self.storage.addDocumentToken(hash: AdminToken.hash(token), document: document, access: access, label: label, by: author)
            }
            return try Self.json(IssuedDocumentToken(id: id, document: document, access: access.rawValue, token: token), status: .created)
        }
        group.get("documents/:document/tokens") { _, context in
            let document = try Self.documentName(context)
            let tokens = try await self.syncRead { try await self.storage.documentTokens(document: document) }
            return try Self.json(tokens.map {
                ListedDocumentToken(id: $0.id, access: $0.access.rawValue, label: $0.label, createdAt: $0.createdAt)
            })
        }
        group.delete("documents/:document/tokens/:id") { _, context in
            let document = try Self.documentName(context)
            let id = try Self.tokenID(context)
            let author = try Self.author()
            guard try await self.write({ try await self.storage.deleteDocumentToken(document: document, id: id, by: author) }) else {
                throw ServerError.notFound("unknown-token", "document \(document) has no token \(id)")
            }
            await self.sync.hub.closeConnections(tokenID: id)
            return Response(status: .noContent)
        }
        group.get("documents/:document") { _, context in
            let document = try Self.documentName(context)
            let (sizes, stored) = try await self.syncRead {
                (try await self.storage.syncDocumentSizes(document), try await self.storage.loadSyncDocument(document))
            }
            guard let sizes else { throw ServerError.notFound("unknown-document", "document \(document) was never written") }
            let merged = try Self.mergedUpdate(stored)
            let vector = try Updates.decodeStateVector(Updates.encodeStateVectorFromUpdate(merged))
            return try Self.json(DocumentSummary(
                name: document, updates: sizes.updates, updateBytes: sizes.updateBytes, snapshotBytes: sizes.snapshotBytes,
                stateVector: Dictionary(uniqueKeysWithValues: vector.map { (String($0.key), $0.value) })))
        }
        group.get("documents/:document/update") { _, context in
            let document = try Self.documentName(context)
            let stored = try await self.syncRead { try await self.storage.loadSyncDocument(document) }
            let merged = try Self.mergedUpdate(stored)
            return Response(status: .ok, headers: [.contentType: "application/octet-stream", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: merged)))
        }
    }

    /// A storage read; failures become `500 storage`.
    private func syncRead<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch {
            logger.error("a read failed: \(String(reflecting: error))")
            throw ServerError.storage
        }
    }

    private static func mergedUpdate(_ stored: StoredSyncDocument) throws -> [UInt8] {
        let parts = (stored.snapshot.map { [$0] } ?? []) + stored.updates.map(\.data)
        guard !parts.isEmpty else { return [0, 0] }
        do { return try Updates.merge(parts) } catch {
            throw ServerError(.internalServerError, "storage", "a stored update does not read: \(error)")
        }
    }

    private static func documentName(_ context: some RequestContext) throws -> String {
        let name = context.parameters.get("document") ?? ""
        guard DocumentName.isValid(name) else {
            throw ServerError(.badRequest, "invalid-name", "a document name is 1–128 of [A-Za-z0-9._-], starting with a letter or digit")
        }
        return name
    }
}

/// Per-document tokens: like admin tokens, 32 random bytes, shown once as `shd_` + base64url.
enum DocumentToken {
    static func generate() -> String { "shd_" + AdminToken.generate().dropFirst(4) }
}

private struct DocumentTokenBody: AdminBody {
    static let shape = AdminBodyShape.object(["access": .leaf, "label": .leaf])

    var access: String
    var label: String?
}

private struct IssuedDocumentToken: Encodable {
    var id: Int
    var document: String
    var access: String
    var token: String
}

private struct ListedDocumentToken: Encodable {
    var id: Int
    var access: String
    var label: String
    var createdAt: Int
}

private struct DocumentSummary: Encodable {
    var name: String
    var updates: Int
    var updateBytes: Int
    var snapshotBytes: Int
    var stateVector: [String: Int]
}
