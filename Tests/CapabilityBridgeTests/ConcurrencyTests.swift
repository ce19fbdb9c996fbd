import CapabilityBridge
import Clocks
import JSEngine
import StateHubTestSupport
import Testing

@Suite("Many concurrent calls", .tags(.engine))
struct ConcurrencyTests {
    @Test func twoHundredParallelCallsAnsweredInShuffledOrderResolveToTheirCallers() async throws {
        // No time passes anywhere: the host's time limit is on a test clock and the page's
        // client timeouts on the manual clock, so only the answer order varies.
        let h = try await BridgeHarness.make(configuration: BridgeConfiguration(clock: TestClock()), clock: .manual)
        let calls = HeldCalls()
        let (arrivals, arrive) = AsyncStream<Void>.makeStream()
        h.host.register("echo", payload: JSONValue.self, result: JSONValue.self) { payload, context in
            await calls.hold(payload["n"]?.intValue ?? -1) { arrive.yield() }
            return ["n": payload["n"] ?? .null, "id": .string(context.requestID ?? "")]
        }
        async let result = h.engine.evaluateAndAwait("""
        (async () => {
          const calls = [];
          for (let n = 0; n < 200; n++) {
            calls.push(invokeNative('echo', { n, pad: 'x'.repeat(n) }).then(d => d.n === n ? null : 'call ' + n + ' got ' + d.n));
          }
          const wrong = (await Promise.all(calls)).filter(x => x !== null);
          return { wrong, pending: StateHubBridge.pendingCount() };
        })()
        """, timeout: eventWaitDeadline)
        await waitUntil("all 200 calls held by the handler", notifiedBy: arrivals, observed: { "\(await calls.count) held" }) {
            await calls.count == 200
        }
        let order = Array(0..<200).shuffled()
        await calls.release(in: order)
        #expect(try await result == ["wrong": [], "pending": 0], "answered in the order \(order)")
        let replies = h.bridgeRecords.filter { $0.type == "reply" }
        #expect(replies.count == 200)
        #expect(Set(replies.map(\.message)).count == 200)
    }

    @Test func twoPagesWithTheirOwnGrantsAndShellsShareOneHostAndTrace() async throws {
        let a = try await BridgeHarness.make(name: "page-a", grants: .all)
        let b = try await BridgeHarness.make(name: "page-b", grants: .actions(["getInitialData"]), host: a.host)
        async let ra = a.invoke("gotoNative", ["page": "a"])
        async let rb = b.invoke("gotoNative", ["page": "b"])
        let (replyA, replyB) = try await (ra, rb)
        #expect(replyA["ok"] == true)
        #expect(replyB["code"] == "refused")
        #expect(a.shell.state.navigationStack.last == .native(page: "a", params: [:]))
        #expect(b.shell.state.navigationStack.count == 1)
        #expect(a.host.attachedPageIDs == ["page-a", "page-b"])
        #expect(Set(a.bridgeRecords.map(\.engine)) == ["page-a", "page-b"])
        try a.host.sendEvent("ping", data: 1, toPage: "page-b")
        #expect(throws: BridgeHostError.unknownPage("nope")) { try a.host.sendEvent("ping", toPage: "nope") }
        await b.engine.close()
        #expect(a.host.attachedPageIDs == ["page-a"], "a page that closes detaches itself")
    }
}

/// Calls a handler holds until the test releases them, in an order the test chooses.
private actor HeldCalls {
    private var held: [Int: CheckedContinuation<Void, Never>] = [:]
    /// Calls held so far, released or not.
    private(set) var count = 0

    /// Suspends the call `n` until it is released; `arrived` runs once it is held.
    func hold(_ n: Int, arrived: @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            held[n] = continuation
            count += 1
            arrived()
        }
    }

    /// Resumes the held calls in `order`.
    func release(in order: [Int]) {
        for n in order { held.removeValue(forKey: n)?.resume() }
    }
}
