import CapabilityBridge
import JSEngine
import Trace

/// A real engine with page-shim.js and bridge-client.js loaded, attached to a host with a
/// headless shell, and a trace with the default redactor.
struct BridgeHarness {
    let engine: JavaScriptEngine
    let host: BridgeHost
    let shell: HeadlessShell
    let trace: TraceRecorder
    var pageID: String { engine.pageID }

    static let initialData: JSONValue = [
        "apiBaseURL": "https://api.example.com", "userId": "u-42", "token": "secret-token-123", "locale": "en-US",
    ]

    static func make(
        name: String = "page-1",
        grants: BridgeGrants = .all,
        configuration: BridgeConfiguration = BridgeConfiguration(urlAllowlist: URLAllowlist(hosts: ["shop.example.com", "*.cdn.example.com"])),
        clock: EngineClock = .real,
        host: BridgeHost? = nil,
        trace: TraceRecorder? = nil
    ) async throws -> BridgeHarness {
        let trace = trace ?? host?.trace ?? TraceRecorder(redactor: BridgeHost.defaultTraceRedactor)
        let host = host ?? BridgeHost(configuration: configuration, trace: trace)
        let engine = try JavaScriptEngine(configuration: .init(name: name, clock: clock))
        for script in try BridgeScripts.engineScripts() {
            try await engine.evaluate(script.source, sourceURL: script.path)
        }
        let shell = HeadlessShell(initialData: initialData, root: .web(url: "https://shop.example.com/", title: "Shop"))
        try await host.attach(engine, app: MicroApp(id: "shop", grants: grants), shell: shell)
        return BridgeHarness(engine: engine, host: host, shell: shell, trace: trace)
    }

    /// Runs `invokeNative(action, payload)` and returns `{"ok":true,"data":…}` or
    /// `{"ok":false,"code":…,"message":…}`.
    func invoke(_ action: String, _ payload: JSONValue = [:], timeout: Int = 5000) async throws -> JSONValue {
        let script = """
        invokeNative(\(JSONValue.string(action).jsonText()), \(payload.jsonText()), { timeout: \(timeout) })
          .then(d => ({ ok: true, data: d }), e => ({ ok: false, code: e.code, message: e.message }))
        """
        return try await engine.evaluateAndAwait(script)
    }

    /// Posts a raw text on the bridge channel and waits for the reply to that id, through
    /// `StateHubBridge.receive` spied on.
    func postRaw(_ text: String) async throws -> JSONValue {
        try await engine.evaluateAndAwait("""
        new Promise(resolve => {
          const original = StateHubBridge.receive;
          StateHubBridge.receive = m => { StateHubBridge.receive = original; resolve(JSON.parse(m)); };
          window.webkit.messageHandlers.bridge.postMessage(\(JSONValue.string(text).jsonText()));
        })
        """)
    }

    /// Records on the bridge channel, oldest first.
    var bridgeRecords: [TraceRecord] { trace.records.filter { $0.channel == TraceChannel.bridge } }
}

/// Polls `condition` until it holds or about a second passes.
func eventually(_ condition: @Sendable () async throws -> Bool) async rethrows -> Bool {
    for _ in 0..<200 {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return try await condition()
}
