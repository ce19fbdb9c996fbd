import Hummingbird

/// Tells the channel's ``SyncUpgradeTakeover`` that an upgrade request was answered without a
/// grant (no route, a refused token, an error), so the connection goes on as HTTP at once: a
/// refused upgrade replays nothing through the pipeline that would tell it otherwise.
struct SyncUpgradeOutcomeMiddleware: RouterMiddleware {
    typealias Context = SyncRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do { response = try await next(request, context) } catch {
            await SyncUpgradeTakeover.settle(on: context.channel)
            throw error
        }
        await SyncUpgradeTakeover.settle(on: context.channel)
        return response
    }
}
