import Foundation
import JSEngine
import Synchronization
import Testing
import WebKitGTKPage

/// Hostile pages and hostile callers (docs/webview.md, "Limits and hostile input"): each test
/// pins one way a page or a caller could reach past the web view's guards.
extension WebKitGTKPageTests {
@Suite("Web view under attack")
struct AttackTests {
    /// A document of another origin, served by a real HTTP server (Python's, which
    /// scripts/ensure-deps.sh installs), that reports whether it reached StateHub's channels.
    static let foreignPage = """
        <!DOCTYPE html><html><body><script>
        window.webkit?.messageHandlers?.bridge?.postMessage('foreign ' + location.origin + ' invokeNative: ' + typeof invokeNative);
        window.webkit?.messageHandlers?.nativeBridge?.postMessage('{"type":"sync_state","store":"evil"}');
        </script></body></html>
        """

    @Test func aForeignOriginNeverReachesTheChannels() async throws {
        let server = try ForeignServer(files: ["evil.html": Self.foreignPage])
        defer { server.stop() }
        let foreign = "http://127.0.0.1:\(server.port)/evil.html"
        let page = try await WebViewPage.make(.init(name: "navigating", baseURI: "http://app.example/"))
        let bridge = Mutex<[String]>([])
        try await page.receiveMessages(on: "bridge") { text in bridge.withLock { $0.append(text) } }
        try await page.receiveMessages(on: "nativeBridge") { text in bridge.withLock { $0.append(text) } }
        try await page.load()

        // The top frame tries to leave for another origin, then a frame of that origin is embedded.
        try await page.evaluate("location.href = \(JSONValue.string(foreign).jsonText()); null")
        try await page.evaluate("""
            const frame = document.createElement('iframe');
            frame.src = \(JSONValue.string(foreign).jsonText());
            document.body.appendChild(frame);
            null
            """)
        // Same origin stays allowed: a same-origin frame (a srcdoc) still reaches the channels.
        try await page.evaluate("""
            const own = document.createElement('iframe');
            own.srcdoc = '<script>window.webkit.messageHandlers.bridge.postMessage("own frame")<\\/script>';
            document.body.appendChild(own);
            null
            """)
        #expect(await eventually { bridge.withLock { $0 }.contains("own frame") })
        // What the server saw is the proof the requests were never made; give a foreign load time to arrive.
        try await Task.sleep(for: .seconds(1))
        #expect(bridge.withLock { $0 } == ["own frame"])
        #expect(server.requests() == [])
        #expect(try await page.evaluate("location.href") == "http://app.example/")
        #expect(try await page.evaluate("typeof invokeNative") == "function")
        await page.close()
    }

    /// The page's own document always loads, whatever its base URI: a `file:` or custom-scheme
    /// base has no host, hence no origin the guard could compare.
    @Test func aDocumentWithAnOpaqueBaseURIStillLoads() async throws {
        for base in ["file:///tmp/statehub-app/index.html", "app:index"] {
            let page = try await WebViewPage.make(.init(name: "opaque", storeRuntime: false, bridgeScripts: false, baseURI: base))
            let loading = Task { try await page.load() }
            let loaded = await settled(loading, within: 10)
            #expect(loaded != nil, "load() of a page with base \(base) never returned")
            #expect(throws: Never.self) { try loaded?.get() }
            if loaded != nil { #expect(try await page.evaluate("location.href") == .string(base)) }
            await page.close()
        }
    }

    /// Strings with U+0000 and lone surrogates cross whole, both ways, as in the engine: WebKit's
    /// UTF-8 conversions stop at a NUL (C strings) and at a lone surrogate (strict UTF-8), which
    /// would cut `'a\0b'` to `a` and `'x\uD800y'` to `x`, and a native `"a\0b"` to `a` in the page.
    @Test func nulsAndLoneSurrogatesCrossWhole() async throws {
        let page = try await WebViewPage.make(.init(name: "strings", storeRuntime: false, bridgeScripts: false))
        try await page.load()
        let got = Mutex<[String]>([])
        try await page.receiveMessages(on: "strings") { text in got.withLock { $0.append(text) } }
        try await page.evaluate(#"""
            const post = m => window.webkit.messageHandlers.strings.postMessage(m);
            post('a\u0000b'); post('x\uD800y'); post('\uDC00 \uD83D\uDE00 \uD800'); post('end');
            """#)
        #expect(await eventually { got.withLock { $0.last } == "end" })
        // The engine's rule (JavaScriptEngine.installMessageHandler): a lone surrogate as its JSON escape.
        #expect(got.withLock { $0 } == ["a\u{0}b", #"x\ud800y"#, #"\udc00 😀 \ud800"#, "end"])

        try await page.evaluate("window.sink = m => { window.got = m; }")
        page.send("a\u{0}b\u{0}", toFunction: "sink", onFailure: nil)
        #expect(try await page.evaluate("[window.got.length, window.got.charCodeAt(1)]") == [4, 0])
        await page.close()
    }

    /// A call waiting on the page when the page goes away ends as `pageGone`, like every other
    /// call on a gone page, not `scriptFailed` with WebKit's "Completion handler … no longer reachable".
    @Test func aCallPendingWhenThePageCloses() async throws {
        let page = try await WebViewPage.make(.init(name: "pending", storeRuntime: false, bridgeScripts: false))
        try await page.load()
        let pending = Task { try await page.callAsyncFunction("await new Promise(() => {})") }
        try await page.evaluate("null")  // the call above has reached the page
        await page.close()
        await #expect(throws: WebViewError.pageGone(pageID: "pending", reason: .closed)) { try await pending.value }
    }

    /// A caller waiting on a page whose promise never settles can give up: cancelling its task
    /// ends the wait with `CancellationError` instead of leaving it waiting forever, and the page
    /// stays usable.
    @Test func aCallOnAPromiseThatNeverSettlesCanBeCancelled() async throws {
        let page = try await WebViewPage.make(.init(name: "never", storeRuntime: false, bridgeScripts: false))
        try await page.load()
        let pending = Task { try await page.callAsyncFunction("await new Promise(() => {})") }
        try await page.evaluate("null")
        pending.cancel()
        let outcome = await settled(pending, within: 10)
        #expect(outcome != nil, "the cancelled call still waits")
        #expect(throws: CancellationError.self) { try outcome?.get() }
        #expect(try await page.evaluate("1 + 1") == 2)
        await page.close()
    }
}
}

/// The task's outcome once known, polled for `seconds` at most; nil: still pending (a test that
/// must not hang on what it checks).
func settled<T: Sendable>(_ task: Task<T, any Error>, within seconds: Double) async -> Result<T, any Error>? {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    Task { let result = await task.result; outcome.withLock { $0 = result } }
    for _ in 0..<Int(seconds * 20) {
        if let result = outcome.withLock({ $0 }) { return result }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return outcome.withLock { $0 }
}

/// `python3 -m http.server` on a free loopback port, serving `files` from a folder of its own.
final class ForeignServer: Sendable {
    let port: Int
    private let process: Process
    private let folder: URL
    private let log: URL

    init(files: [String: String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-foreign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        log = folder.appendingPathComponent("requests.log")
        // Port 0: the server picks a free one; a small wrapper prints it, then logs each request path.
        let script = """
            import http.server, sys, functools
            class H(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *a): pass
                def do_GET(self):
                    open(sys.argv[2], 'a').write(self.path + '\\n')
                    return super().do_GET()
            s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(H, directory=sys.argv[1]))
            print(s.server_address[1], flush=True)
            s.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder.path, log.path]
        let output = Pipe()
        process.standardOutput = output
        // Not the test's own stderr: a server left behind would keep `swift test`'s output open.
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "python3 http.server printed no port: \(line)"])
        }
        self.port = port
    }

    /// The paths requested so far.
    func requests() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        // SIGKILL: the test process may block SIGTERM, and its children inherit the mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
