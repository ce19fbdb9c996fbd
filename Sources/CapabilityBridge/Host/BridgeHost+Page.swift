import JSEngine
import Trace

extension BridgeHost {
    /// The page function that replaces one stylesheet by id (page-shim.js).
    static let replaceStyleSheetFunction = "StateHubPage.replaceStyleSheet"

    /// A message on the `page` channel (PROTOCOL.md B.6), posted by page-shim.js:
    /// `{"type":"title","title":…}`, `{"type":"navigate","url":…,"via":…}`,
    /// `{"type":"style_applied","ack":…}` or `{"type":"style_failed","ack":…,"message":…}`.
    /// Anything else is recorded and ignored. Runs on the page's thread.
    func receivePageMessage(_ text: String, from page: AttachedPage) {
        guard let value = try? JSONValue(parsing: text), case .string(let type)? = value["type"] else {
            record(.webToNative, page: page, type: "page", message: "{}", note: "ignored: not a page message")
            return
        }
        switch type {
        case "title":
            record(.webToNative, page: page, type: "title", message: text)
            guard case .string(let title)? = value["title"] else { return }
            let shell = page.shell
            runInOrder { await shell.documentTitleChanged(title) }
        case "navigate":
            guard case .string(let url)? = value["url"] else {
                record(.webToNative, page: page, type: "navigate", message: text, note: "ignored: no url")
                return
            }
            if isLegacyBridgeURL(url) {
                handleLegacyURL(url, from: page)
            } else {
                record(.webToNative, page: page, type: "navigate", message: text, note: "ignored: not a bridge URL (the engine does not navigate)")
            }
        case "style_applied", "style_failed":
            guard case .string(let ack)? = value["ack"] else { return }
            let waiter = state.withLock { $0.styleAcks.removeValue(forKey: ack) }
            if type == "style_applied" {
                waiter?.continuation.resume()
            } else {
                let reason = value["message"]?.stringValue ?? "the page reported a failure"
                waiter?.continuation.resume(throwing: BridgeHostError.styleSheetNotApplied(pageID: page.pageID, reason: reason))
            }
        default:
            record(.webToNative, page: page, type: "page", message: text, note: "ignored: unknown page message type \(type)")
        }
    }

    /// Puts `css` into the page's one `<style id=…>` (created on first use, replaced after),
    /// through `StateHubPage.replaceStyleSheet` in page-shim.js, and returns once the page
    /// has acknowledged it. Calls for one page are applied in the order they are made.
    ///
    /// - Throws: ``BridgeHostError/unknownPage(_:)``; ``BridgeHostError/styleSheetNotApplied(pageID:reason:)``
    ///   when the page lacks the shim, fails, or closes first.
    public func replaceStyleSheet(id: String, css: String, onPage pageID: String) async throws {
        guard let page = page(pageID) else { throw BridgeHostError.unknownPage(pageID) }
        guard let transport = page.transport else { throw BridgeHostError.unknownPage(pageID) }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ack = state.withLock { s -> String in
                s.nextAck += 1
                let ack = "s\(s.nextAck)"
                s.styleAcks[ack] = (page: pageID, continuation: continuation)
                return ack
            }
            let text = JSONValue.object(["id": .string(id), "css": .string(css), "ack": .string(ack)]).jsonText()
            record(.nativeToWeb, page: page, type: "style", message: text)
            let weakHost = WeakHost(value: self)
            transport.send(text, toFunction: Self.replaceStyleSheetFunction) { error in
                let waiter = weakHost.value?.state.withLock { $0.styleAcks.removeValue(forKey: ack) }
                waiter?.continuation.resume(throwing: BridgeHostError.styleSheetNotApplied(pageID: pageID, reason: "\(error)"))
            }
        }
    }

    /// Runs `work` on the global executor, after everything this host already started for
    /// the page's earlier messages (a chain per host), so titles reach the shell in order.
    func runInOrder(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { s in
            let previous = s.pageWork
            s.pageWork = Task {
                await previous?.value
                await work()
            }
        }
    }
}
