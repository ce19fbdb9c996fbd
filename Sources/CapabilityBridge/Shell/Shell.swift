import JSEngine

/// What a page's native chrome can do for it: the target of the framework handlers.
///
/// Implementations:
/// - ``HeadlessShell`` records what a real shell would do, for tests, the CLI and Linux.
/// - On Apple platforms a SwiftUI shell implements the same protocol: an `@MainActor
///   @Observable final class` whose async methods (isolated to the main actor, which a
///   nonisolated async requirement allows) update a `NavigationStack` path, an `.alert`,
///   `.toolbar` items and `.navigationTitle` (see docs/bridge.md).
///
/// Every requirement is `async` so that a main-actor shell can satisfy it; the bridge
/// awaits each call before answering the page, so a page's `await invokeNative(...)`
/// resolves after the shell has acted.
public protocol Shell: AnyObject, Sendable {
    /// `getInitialData`: what this micro-app starts from (API base URL, user id, token, locale…).
    func initialData(for app: MicroApp) async throws -> JSONValue

    /// `showAlert`: shows an alert and returns the index of the button chosen.
    func showAlert(_ alert: ShellAlert) async -> Int

    /// `didFinishLoading` / `didFailLoading` (and `.loading` when a page starts or reloads).
    func setLoadingState(_ state: ShellLoadingState) async

    /// `gotoWebview` / `gotoNative`: pushes a page onto the navigation stack.
    func push(_ destination: ShellDestination) async

    /// `doAction`: back, reload, share.
    func perform(_ action: ShellAction) async

    /// `configNative` `nav_item_right`: replaces the header's right items (in order).
    /// When the user taps one, the shell calls `onTap` with it; the bridge then sends the
    /// item's action to the page that configured it as an event (B.3).
    func setRightItems(_ items: [ShellHeaderItem], onTap: @escaping @Sendable (ShellHeaderItem) -> Void) async

    /// `configNative` `title`: pins the header title (`nil` unpins it; see ``ShellHeader``).
    func pinTitle(_ title: String?) async

    /// The page's `document.title` changed. The header shows it unless a title is pinned.
    func documentTitleChanged(_ title: String) async
}
