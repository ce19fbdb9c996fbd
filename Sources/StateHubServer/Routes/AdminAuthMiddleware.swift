import Hummingbird
import Foundation

/// Refuses `/admin/…` without a bearer token whose SHA-256 is stored (`401`). Looks the hash
/// up on every request, so a token deleted through one instance stops working on all, and sets
/// `AdminIdentity.current` to the token's id and label for the rest of the request.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let storage: ServerStorage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = Self.bearerToken(request.headers[.authorization]), token.utf8.count <= 512 else {
            throw ServerError.unauthorized
        }
        let identity: AdminIdentity?
        do {
            identity = try await storage.adminIdentity(hash: AdminToken.hash(token))
        } catch {
            context.logger.error("admin token lookup failed: \(error)")
            throw ServerError.storage
        }
        guard let identity else { throw ServerError.unauthorized }
        // Who made the request, for the audit row of whatever it changes (docs/server.md, "Audit list").
        return try await AdminIdentity.$current.withValue(identity) { try await next(request, context) }
    }

    /// The token of `Bearer <token>`, the scheme matched without regard to case (RFC 9110 §11.1:
    /// `bearer` and `BEARER` are the same scheme); `nil` for another scheme or an empty token.
    static func bearerToken(_ header: String?) -> String? {
        guard let header, let space = header.firstIndex(of: " "),
              header[..<space].lowercased() == "bearer" else { return nil }
        let token = header[header.index(after: space)...].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
