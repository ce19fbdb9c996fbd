import Foundation
import JSEngine
import Testing
import WebKitGTKPage

/// An engine made before the first web view (docs/webview.md, "Engines in the same process").
/// WebKit aborts the process in that order, so the test runs it in a child: this test binary,
/// filtered to this test, with an environment variable that makes it the child.
extension WebKitGTKPageTests {
@Suite("Web view and engines in one process")
struct ProcessOrderTests {
    static let childVariable = "STATEHUB_WEBVIEW_ENGINE_FIRST_CHILD"

    @Test func anEngineBeforeTheFirstWebViewIsATypedError() async throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil {
            // The child: an engine first, then web views.
            let engine = try JavaScriptEngine(configuration: .init(name: "first"))
            #expect(try await engine.evaluate("1 + 1") == 2)
            await #expect(throws: WebViewError.engineStartedFirst) { try await WebViewPage.make() }
            #expect(throws: WebViewError.engineStartedFirst) { try GTKMainLoop.start() }
            // The engine is unharmed.
            #expect(try await engine.evaluate("2 + 2") == 4)
            return
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "anEngineBeforeTheFirstWebViewIsATypedError"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        // Without the check WebKit aborts the child (SIGABRT) inside webkit_web_context_new_ephemeral.
        #expect(child.terminationReason == .exit && child.terminationStatus == 0, "\(text)")
        #expect(text.contains("1 test"), "the child ran no test: \(text)")
    }
}
}
