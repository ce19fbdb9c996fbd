import CapabilityBridge
import Foundation
import JSEngine
import StateHub
import StateHubPage
import Testing
import Trace
import WebKitGTKPage

extension WebKitGTKPageTests {
/// The same scenario in the engine and in a web view records the same store-sync and bridge
/// messages (docs/webview.md, "Identical traces").
@Suite("Web view and engine traces")
struct TraceTests {
    static let initialData: JSONValue = ["apiBaseURL": "https://api.example.com", "userId": "u-42", "locale": "en-US"]

    /// One page's side of the scenario: how to run a script that awaits, and the hub.
    struct Side {
        let hub: GlobalStateHub
        let run: @Sendable (String) async throws -> JSONValue
    }

    static func registerQuote(_ bridge: BridgeHost) {
        bridge.register("cart.quote", payload: JSONValue.self, result: JSONValue.self) { payload, _ in
            ["sku": payload["sku"] ?? .null, "price": 4.25]
        }
    }

    /// The scenario, step by step, each step finished (its records written) before the next.
    static func scenario(_ side: Side) async throws {
        #expect(await mirror(of: side.hub, "cart") { $0 == ["items": []] })
        #expect(await mirror(of: side.hub, "user") { $0 != nil })
        try await side.hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])
        try await side.hub.dispatch(store: "user", action: "login", args: ["Ana Lima"])
        let order = try await side.hub.dispatch(store: "cart", action: "checkout")
        #expect(order["total"] == 3)
        await #expect(throws: StateHubError.self) { try await side.hub.dispatch(store: "cart", action: "checkout") }
        #expect(try await side.run("invokeNative('getInitialData', {})").isSemanticallyEqual(to: initialData))
        #expect(try await side.run("invokeNative('cart.quote', { sku: 'A1' })") == ["sku": "A1", "price": 4.25])
        // A write the page makes on its own, not through a dispatch.
        _ = try await side.run("(getActivePinia()._s.get('user').name = 'Ana L.', Promise.resolve(null))")
        #expect(await mirror(of: side.hub, "user") { $0?["name"] == "Ana L." })
    }

    @Test func theEngineAndTheWebViewRecordTheSameMessages() async throws {
        // The web view's thread first: WebKit must own WTF's main thread before an engine starts.
        try GTKMainLoop.start()
        let bundles = [try WebViewFixtures.example("user"), try WebViewFixtures.example("cart")]

        let engineTrace = TraceRecorder(redactor: BridgeHost.defaultTraceRedactor)
        let engineShell = HeadlessShell(initialData: Self.initialData)
        let hosted = try await HostedPage.make(.init(
            name: "page", bundles: bundles.map { HostedPage.Bundle(path: $0.path, source: $0.source) },
            trace: engineTrace, app: MicroApp(id: "shop", grants: .framework(plus: ["cart.quote"])), shell: engineShell))
        Self.registerQuote(hosted.bridge)
        let engine = hosted.engine
        try await Self.scenario(Side(hub: hosted.hub, run: { try await engine.evaluateAndAwait($0) }))
        await hosted.close()

        let webTrace = TraceRecorder(redactor: BridgeHost.defaultTraceRedactor)
        let hub = GlobalStateHub(configuration: .init(trace: webTrace))
        let bridge = BridgeHost(trace: webTrace)
        Self.registerQuote(bridge)
        let page = try await WebViewPage.make(.init(name: "page", bundles: bundles))
        try await hub.attach(page)
        try await bridge.attach(page, app: MicroApp(id: "shop", grants: .framework(plus: ["cart.quote"])), shell: HeadlessShell(initialData: Self.initialData))
        try await page.load()
        try await Self.scenario(Side(hub: hub, run: { try await page.callAsyncFunction("return await (0, eval)(source);", arguments: ["source": $0]) }))
        await page.close()

        let engineRecords = Self.comparable(engineTrace.records)
        let webRecords = Self.comparable(webTrace.records)
        #expect(engineRecords.count > 10)
        #expect(webRecords.count == engineRecords.count)
        for (index, (engineRecord, webRecord)) in zip(engineRecords, webRecords).enumerated() {
            #expect(webRecord == engineRecord, "record \(index)")
        }
    }

    /// A record with what may differ between two runs set aside: its step and time. The ids in
    /// messages (`n-4`, `w1`, dispatch and request ids) come from the same counters in both
    /// and are compared. One documented difference is set aside: WebKitGTK names user scripts
    /// `user-script:N` in stacks where the engine names the file, so a stack's file names are
    /// dropped (its lines and columns are compared).
    struct Comparable: Equatable, CustomStringConvertible {
        let direction: TraceDirection
        let channel: String
        let engine: String
        let store: String?
        let type: String
        let seq: Int?
        /// The size as it crossed; `nil` where a stack (whose file names differ) is in the message.
        let size: Int?
        let message: String
        let note: String?
        var description: String { "\(direction) \(channel) \(store ?? "-") \(type) \(seq.map(String.init) ?? "-") \(size.map(String.init) ?? "-") \(message) \(note ?? "")" }
    }

    /// `@user-script:10:40:53` (web view) and `@cart.js:40:53` (engine) both become `@40:53`.
    static func withoutScriptNames(_ message: String) -> String {
        message
            .replacingOccurrences(of: #"@user-script:\d+:"#, with: "@", options: .regularExpression)
            .replacingOccurrences(of: #"@[^@"\s]*?\.js:"#, with: "@", options: .regularExpression)
    }

    static func comparable(_ records: [TraceRecord]) -> [Comparable] {
        records.filter { $0.channel == TraceChannel.nativeBridge || $0.channel == TraceChannel.bridge }.map {
            Comparable(direction: $0.direction, channel: $0.channel, engine: $0.engine, store: $0.store, type: $0.type,
                       seq: $0.seq, size: $0.message.contains("\"stack\"") ? nil : $0.size, message: withoutScriptNames($0.message), note: $0.note)
        }
    }
}
}
