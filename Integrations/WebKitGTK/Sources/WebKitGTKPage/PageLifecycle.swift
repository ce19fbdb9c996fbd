import Synchronization

/// Whether a page is gone, and who to tell when it goes: shared by the page (any thread) and
/// its view (on `gtk:main`), so neither keeps the other alive.
final class PageLifecycle: Sendable {
    private let state = Mutex<(reason: WebViewPage.CloseReason?, handlers: [@Sendable () -> Void])>((nil, []))

    var closeReason: WebViewPage.CloseReason? { state.withLock { $0.reason } }

    /// Runs `handler` once when the page goes away; at once if it is gone.
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let gone = state.withLock { state -> Bool in
            if state.reason != nil { return true }
            state.handlers.append(handler)
            return false
        }
        if gone { handler() }
    }

    /// Marks the page gone (the first reason wins) and runs the handlers, off the lock.
    func close(_ reason: WebViewPage.CloseReason) {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}
