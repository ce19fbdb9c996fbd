import JSEngine

extension BridgeHost {
    /// Sends an event (B.3) `{"event": name, "data": data}` to a page's `onNative` subscribers.
    ///
    /// - Throws: ``BridgeHostError/unknownPage(_:)`` when no page with that id is attached.
    public func sendEvent(_ name: String, data: JSONValue = .null, toPage pageID: String) throws(BridgeHostError) {
        guard let page = page(pageID) else { throw .unknownPage(pageID) }
        sendEvent(name, data: data, to: page)
    }

    func sendEvent(_ name: String, data: JSONValue, to page: AttachedPage) {
        let text = BridgeReply.event(name, data: data)
        record(.nativeToWeb, page: page, type: "event", message: text)
        deliver(text, to: Self.receiveFunction, page: page, type: "event")
    }

    /// Taps the right header item at `index` of a page, as a user would: sends the item's
    /// `action` with its `action_parameters` to the page as an event.
    ///
    /// - Throws: ``BridgeHostError/unknownPage(_:)``, ``BridgeHostError/noRightItem(pageID:index:count:)``.
    public func tapRightItem(at index: Int, onPage pageID: String) throws(BridgeHostError) {
        guard let page = page(pageID) else { throw .unknownPage(pageID) }
        let items = page.rightItems.withLock { $0 }
        guard items.indices.contains(index) else { throw .noRightItem(pageID: pageID, index: index, count: items.count) }
        sendEvent(items[index].action, data: items[index].parameters, to: page)
    }

    /// The right header items a page configured last.
    public func rightItems(ofPage pageID: String) -> [ShellHeaderItem] {
        page(pageID)?.rightItems.withLock { $0 } ?? []
    }
}
