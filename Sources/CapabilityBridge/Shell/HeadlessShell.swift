import JSEngine
import Synchronization

/// A ``Shell`` with no UI: it records what a real shell would do, so the bridge is testable
/// on Linux and `statehub run` can print the final state.
///
/// Behaviour: `push` appends to the navigation stack; `back` pops unless only the root is
/// left; `reload` sets loading to `.loading`; every action is also logged in order; alerts
/// answer ``alertAnswer`` (0: the first button) at once; `initialData` answers the value
/// given at init. Thread-safe (one lock); every method is O(1) apart from copying ``state``
/// (and once more for each ``stateChanges()`` subscriber).
public final class HeadlessShell: Shell {
    private struct Inner: Sendable {
        var state: HeadlessShellState
        var onTap: (@Sendable (ShellHeaderItem) -> Void)?
        var subscribers: [Int: AsyncStream<HeadlessShellState>.Continuation] = [:]
        var nextSubscriberID = 0

        /// Changes the state and tells every subscriber the new one, in order (under the lock).
        mutating func update(_ change: (inout HeadlessShellState) -> Void) {
            change(&state)
            for subscriber in subscribers.values { subscriber.yield(state) }
        }
    }

    private let inner: Mutex<Inner>
    private let initial: JSONValue
    /// The button index every alert answers (clamped to the alert's buttons).
    public let alertAnswer: Int

    /// - Parameters:
    ///   - initialData: what `getInitialData` answers (a JSON object, typically with
    ///     `apiBaseURL`, `userId`, `token`, `locale`); `nil` answers `{}`.
    ///   - root: the micro-app's own page, at the bottom of the stack.
    ///   - alertAnswer: the button index alerts answer.
    public init(initialData: JSONValue? = nil, root: ShellDestination? = nil, alertAnswer: Int = 0) {
        self.initial = initialData ?? .object([:])
        self.alertAnswer = alertAnswer
        self.inner = Mutex(Inner(state: HeadlessShellState(navigationStack: root.map { [$0] } ?? [])))
    }

    /// A copy of everything recorded so far.
    public var state: HeadlessShellState { inner.withLock { $0.state } }

    /// The state after each change from now on: what a test awaits instead of polling
    /// ``state``. Unbounded (a test's changes are few); it ends when the consumer stops.
    public func stateChanges() -> AsyncStream<HeadlessShellState> {
        let (stream, continuation) = AsyncStream.makeStream(of: HeadlessShellState.self)
        let id = inner.withLock { inner in
            defer { inner.nextSubscriberID += 1 }
            inner.subscribers[inner.nextSubscriberID] = continuation
            return inner.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            self?.inner.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Taps the right header item at `index`, as a user would: the bridge sends the item's
    /// action to the page as an event.
    ///
    /// - Throws: ``HeadlessShellError/noRightItem(index:count:)``.
    public func tapRightItem(at index: Int) throws(HeadlessShellError) {
        let (item, onTap): (ShellHeaderItem?, (@Sendable (ShellHeaderItem) -> Void)?) = inner.withLock { inner in
            let items = inner.state.header.rightItems
            return (items.indices.contains(index) ? items[index] : nil, inner.onTap)
        }
        guard let item else { throw .noRightItem(index: index, count: state.header.rightItems.count) }
        onTap?(item)
    }

    // MARK: Shell

    public func initialData(for app: MicroApp) async throws -> JSONValue {
        inner.withLock { $0.update { $0.initialDataRequests += 1 } }
        return initial
    }

    public func showAlert(_ alert: ShellAlert) async -> Int {
        inner.withLock { $0.update { $0.alerts.append(alert) } }
        return min(max(alertAnswer, 0), alert.buttons.count - 1)
    }

    public func setLoadingState(_ state: ShellLoadingState) async {
        inner.withLock { $0.update { $0.loading = state } }
    }

    public func push(_ destination: ShellDestination) async {
        inner.withLock { $0.update { $0.navigationStack.append(destination) } }
    }

    public func perform(_ action: ShellAction) async {
        inner.withLock {
            $0.update { state in
                state.actions.append(action)
                switch action {
                case .back: if state.navigationStack.count > 1 { state.navigationStack.removeLast() }
                case .reload: state.loading = .loading
                case .share: break
                }
            }
        }
    }

    public func setRightItems(_ items: [ShellHeaderItem], onTap: @escaping @Sendable (ShellHeaderItem) -> Void) async {
        inner.withLock { inner in
            inner.onTap = onTap
            inner.update { $0.header.rightItems = items }
        }
    }

    public func pinTitle(_ title: String?) async {
        inner.withLock { $0.update { $0.header.pinnedTitle = title } }
    }

    public func documentTitleChanged(_ title: String) async {
        inner.withLock { $0.update { $0.header.documentTitle = title } }
    }
}
