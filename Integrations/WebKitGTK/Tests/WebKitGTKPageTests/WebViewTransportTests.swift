import JSEngine
import Synchronization
import Testing
import WebKitGTKPage

extension WebKitGTKPageTests {
/// `PageTransport` itself on a web view: order, arguments that are never source, failures.
@Suite("Web view as a PageTransport")
struct TransportTests {
    /// Sends `message` to `path` and returns what reached `onFailure` (nil: nothing, after a
    /// later call has come back, which the page runs after this one).
    static func failure(of page: WebViewPage, _ message: String, to path: String) async throws -> (any Error)? {
        let seen = Mutex<(any Error)?>(nil)
        page.send(message, toFunction: path) { error in seen.withLock { $0 = error } }
        try await page.evaluate("null")
        return seen.withLock { $0 }
    }

    @Test func messagesArriveInOrderAsArgumentsAndFailuresAreTyped() async throws {
        let page = try await WebViewPage.make(.init(name: "transport", storeRuntime: false, bridgeScripts: false, bundles: [
            .init(path: "sink.js", source: """
                window.sink = { got: [], take(m) { this.got.push(m); }, fail(m) { throw new TypeError('no: ' + m); } };
                """),
        ]))
        try await page.load()
        let echoed = Mutex<[String]>([])
        try await page.receiveMessages(on: "echo") { text in echoed.withLock { $0.append(text) } }

        // 200 sends from native, in order; text that would break any source it were pasted into.
        let messages = (0..<200).map { "m\($0) '\"`${x}</script>\\u2028\u{2028}" }
        for message in messages { page.send(message, toFunction: "sink.take", onFailure: nil) }
        #expect(try await page.evaluate("sink.got") == .array(messages.map { .string($0) }))

        // Page → native: strings as they are, other bodies as their JSON text, in posting order.
        try await page.evaluate("""
            window.webkit.messageHandlers.echo.postMessage('a "quoted" text');
            window.webkit.messageHandlers.echo.postMessage({ n: 1, list: [true, null] });
            """)
        #expect(await eventually { echoed.withLock { $0.count } == 2 })
        let texts = echoed.withLock { $0 }
        #expect(texts.first == #"a "quoted" text"#)
        // WebKit carries a non-string body to the UI process as a value, not in JavaScript's
        // key order (docs/webview.md): the same object, keys in another order.
        #expect(try texts.last.map { try JSONValue(parsing: $0) }?.isSemanticallyEqual(to: ["n": 1, "list": [true, .null]]) == true)

        #expect(try await Self.failure(of: page, "x", to: "sink.take") == nil)
        let missing = try await Self.failure(of: page, "x", to: "sink.nothing")
        #expect(missing as? PageTransportError == .noFunction(pageID: "transport", path: "sink.nothing"))
        let missingHolder = try await Self.failure(of: page, "x", to: "nowhere.take")
        #expect(missingHolder as? PageTransportError == .noFunction(pageID: "transport", path: "nowhere.take"))
        let threw = try await Self.failure(of: page, "x", to: "sink.fail")
        guard case .scriptFailed(pageID: "transport", let message)? = threw as? WebViewError else {
            Issue.record("expected scriptFailed, got \(String(describing: threw))")
            return
        }
        #expect(message.contains("no: x"))

        let closed = Mutex(false)
        page.onClose { closed.withLock { $0 = true } }
        await page.close()
        #expect(closed.withLock { $0 })
        #expect(page.closeReason == .closed)
        let afterClose = Mutex<(any Error)?>(nil)
        page.send("x", toFunction: "sink.take") { error in afterClose.withLock { $0 = error } }
        #expect(await eventually { afterClose.withLock { $0 } != nil })
        #expect(afterClose.withLock { $0 } as? PageTransportError == .closed(pageID: "transport"))
        // onClose after the page has gone runs at once.
        let late = Mutex(false)
        page.onClose { late.withLock { $0 = true } }
        #expect(late.withLock { $0 })
    }
}
}
