import JSEngine
import StateHub

extension GlobalStateHub {
    /// Waits until `condition` holds of the mirror of `store`, following ``GlobalStateHub/changes(of:)``
    /// instead of polling; false if it still does not after `timeout`.
    ///
    /// A web view's messages cross a process and a thread before the hub sees them, so code that loads a
    /// page and then reads a store waits for it here (the tests and `webview-bench` do). The timeout is a
    /// safety net so that a broken page is an answer instead of a hang.
    public func mirror(of store: String, becomes condition: @escaping @Sendable (JSONValue?) -> Bool,
                       within timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                if condition(self.state(of: store)) { return true }
                for await _ in self.changes(of: store) where condition(self.state(of: store)) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return condition(self.state(of: store))
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
