import JSEngine
import StateHub
import Testing
import WebKitGTKPage

/// The page's console, forwarded (docs/webview.md, "The console"): WebKitGTK shows the UI
/// process none, so without it a bundle that throws is silent.
extension WebKitGTKPageTests {
@Suite("Web view console")
struct ConsoleTests {
    @Test func consoleCallsAndUncaughtErrorsReachOnConsole() async throws {
        let (lines, sink) = AsyncStream.makeStream(of: WebViewPage.ConsoleMessage.self)
        let page = try await WebViewPage.make(.init(name: "console", bundles: [
            .init(path: "talks.js", source: "console.log('hello', { a: 1 }, 2); console.warn('careful');"),
            .init(path: "throws.js", source: "throw new TypeError('bad bundle');"),
            .init(path: "rejects.js", source: "Promise.reject(new Error('later'));"),
        ], onConsole: { sink.yield($0) }))
        try await page.load()
        try await page.evaluate("console.error('from evaluate')")

        // Five lines, in order; a safety net so that a broken forwarder fails instead of hanging.
        let received = await withTaskGroup(of: [WebViewPage.ConsoleMessage].self) { group in
            group.addTask {
                var first: [WebViewPage.ConsoleMessage] = []
                for await line in lines.prefix(5) { first.append(line) }
                return first
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                sink.finish()
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
        #expect(received.count == 5, "\(received)")
        #expect(received.first == WebViewPage.ConsoleMessage(level: "log", text: "hello {\"a\":1} 2"))
        #expect(received.dropFirst().first == WebViewPage.ConsoleMessage(level: "warn", text: "careful"))
        // User scripts have no origin: WebKit hands their uncaught error to the page as "Script error.".
        #expect(received.dropFirst(2).first?.level == "error")
        #expect(received.dropFirst(2).first?.text.hasPrefix("uncaught: ") == true)
        #expect(received.dropFirst(3).first?.text.hasPrefix("unhandled rejection: Error: later") == true)
        #expect(received.dropFirst(4).first == WebViewPage.ConsoleMessage(level: "error", text: "from evaluate"))
        await page.close()
    }
}
}
