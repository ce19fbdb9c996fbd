import CapabilityBridge
import Clocks
import JSEngine
import StateHubTestSupport
import Testing
import Trace

/// A real engine with page-shim.js and bridge-client.js loaded, attached to a host with a
/// headless shell, and a trace with the default redactor.
///
/// The host's clock is a `TestClock` nobody advances unless a test passes a configuration with
/// its own: a handler's time limit is a test's subject only where the test moves that clock, and
/// elsewhere a loaded machine's slow handler must not be answered `timeout` (it was, at 10 s of
/// real time). ``invoke(_:_:)`` sets no client timeout for the same reason.
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
        configuration: BridgeConfiguration = BridgeConfiguration(
            urlAllowlist: URLAllowlist(hosts: ["shop.example.com", "*.cdn.example.com"]), clock: TestClock()),
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
        try await engine.execute(pageArrivals, sourceURL: "test-arrivals.js")
        let shell = HeadlessShell(initialData: initialData, root: .web(url: "https://shop.example.com/", title: "Shop"))
        try await host.attach(engine, app: MicroApp(id: "shop", grants: grants), shell: shell)
        return BridgeHarness(engine: engine, host: host, shell: shell, trace: trace)
    }

    /// Runs `invokeNative(action, payload)` without a client timeout and returns
    /// `{"ok":true,"data":…}` or `{"ok":false,"code":…,"message":…}`; a reply that never comes
    /// fails the test after ``eventWaitDeadline``, naming the action.
    func invoke(_ action: String, _ payload: JSONValue = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue {
        let script = """
        invokeNative(\(JSONValue.string(action).jsonText()), \(payload.jsonText()), { timeout: 0 })
          .then(d => ({ ok: true, data: d }), e => ({ ok: false, code: e.code, message: e.message }))
        """
        do {
            return try await engine.evaluateAndAwait(script, timeout: eventWaitDeadline)
        } catch EngineError.timeout {
            Issue.record("waited \(eventWaitDeadline) for the reply to invokeNative('\(action)')", sourceLocation: sourceLocation)
            return .null
        }
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

/// A page-side event for tests: a callback that stores what arrived calls
/// `testArrivals.arrived()`, and `whenPage(predicate)` is a promise that settles once
/// `predicate()` holds, checked now and after each arrival.
private let pageArrivals = """
globalThis.testArrivals = {
  waiters: [],
  arrived() { const waiters = this.waiters; this.waiters = []; for (const check of waiters) check(); },
};
globalThis.whenPage = predicate => new Promise(resolve => {
  const check = () => { if (predicate()) resolve(true); else testArrivals.waiters.push(check); };
  check();
});
"""

extension BridgeHarness {
    /// Waits until the JavaScript `predicate` holds in the page, checked on each
    /// `testArrivals.arrived()`; a hang fails after ``eventWaitDeadline`` naming `description`.
    func waitForPage(_ description: String, _ predicate: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        do {
            _ = try await engine.evaluateAndAwait("whenPage(() => \(predicate))", timeout: eventWaitDeadline)
        } catch EngineError.timeout {
            Issue.record("waited \(eventWaitDeadline) for: \(description) (\(predicate))", sourceLocation: sourceLocation)
        }
    }

    /// Waits until `condition` holds of the shell's state, checked on each change.
    @discardableResult
    func waitForShell(_ description: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ condition: @escaping @Sendable (HeadlessShellState) -> Bool) async -> Bool {
        let shell = self.shell
        return await waitUntil(description, notifiedBy: shell.stateChanges(), observed: { "\(shell.state)" },
                               sourceLocation: sourceLocation) { condition(shell.state) }
    }

    /// Waits until the bridge channel holds a record that `isWanted` accepts, checked on each
    /// record.
    @discardableResult
    func waitForRecord(_ description: String, sourceLocation: SourceLocation = #_sourceLocation,
                       _ isWanted: @escaping @Sendable (TraceRecord) -> Bool) async -> Bool {
        let trace = self.trace
        let bridgeRecords: @Sendable () -> [TraceRecord] = { trace.records.filter { $0.channel == TraceChannel.bridge } }
        return await waitUntil(description, notifiedBy: trace.liveRecords(), observed: { "\(bridgeRecords().map(\.type))" },
                               sourceLocation: sourceLocation) { bridgeRecords().contains(where: isWanted) }
    }
}
