import Hummingbird
import HummingbirdAuth

/// Refuses `/admin/…` without a bearer token whose SHA-256 is stored (`401`). Looks the hash
/// up on every request, so a token deleted through one instance stops working on all.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let storage: ServerStorage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = request.headers.bearer?.token, !token.isEmpty, token.utf8.count <= 512 else {
            throw ServerError.unauthorized
        }
        let known: Bool
        do {
            known = try await storage.hasToken(hash: AdminToken.hash(token))
        } catch {
            context.logger.error("admin token lookup failed: \(error)")
            throw ServerError.storage
        }
        guard known else { throw ServerError.unauthorized }
        return try await next(request, context)
    }
}
