import JSEngine
import StateHubPage
import Synchronization
import Testing
@testable import StateHub

/// Chunk transfers (PROTOCOL.md A.11) cannot pile up memory,
/// a forged transfer cannot break a legitimate one, and an abandoned transfer is reported.
@Suite(.tags(.engine)) struct ChunkTransferTests {
    static func chunk(_ transfer: String, _ index: Int, of count: Int, _ data: String, store: String = "s") -> String {
        #"{"v":1,"storeId":"\#(store)","messageId":"\#(transfer).\#(index)","type":"chunk","payload":{"transfer":"\#(transfer)","index":\#(index),"count":\#(count),"data":"\#(data)"}}"#
    }

    /// Many unfinished transfers from one page hold at most the cap: each new one abandons
    /// (and reports) the one before, and a transfer over the cap is refused.
    @Test func unfinishedTransfersStayUnderThePageCap() {
        let assembler = ChunkAssembler(maximumBytes: 100)
        var abandoned = 0
        for number in 0..<600 {
            let (outcome, dropped) = assembler.add(page: "p", storeId: "s", transfer: "t\(number)", index: 0, count: 3, data: String(repeating: "x", count: 60))
            guard case .incomplete = outcome else { Issue.record("transfer \(number): \(outcome)"); return }
            if let dropped {
                abandoned += 1
                #expect(dropped.reason.contains("abandoned after 1 of 3 chunks"), "\(dropped.reason)")
            }
            #expect(assembler.openBytes(page: "p") <= 100)
        }
        #expect(abandoned == 599)
        let (over, _) = assembler.add(page: "p", storeId: "s", transfer: "t599", index: 1, count: 3, data: String(repeating: "y", count: 60))
        guard case .tooLarge(let reason, let bytes) = over else { Issue.record("expected a refusal, got \(over)"); return }
        #expect(bytes == 120)
        #expect(reason.contains("over 100 bytes"), "\(reason)")
        #expect(assembler.openBytes(page: "p") == 0)
    }

    /// A transfer over the page's cap is dropped with a problem and a resync, and the page is
    /// told: it gets `error` `transfer_too_large` (PROTOCOL.md A.5.10), the dispatch whose
    /// writes were in it fails truthfully, and the resync whose answer is over the cap too is
    /// not asked again (no loop).
    @Test func aTransferOverTheCapIsDroppedAndThePageIsTold() async throws {
        let console = Mutex<[String]>([])
        var configuration = GlobalStateHub.Configuration(maximumMessageBytes: 4_096)
        configuration.maximumTransferBytes = 20_000
        let hub = GlobalStateHub(configuration: configuration)
        let engine = try JavaScriptEngine(configuration: .init(name: "big", onConsole: { message in
            console.withLock { $0.append(message.text) }
        }))
        try await hub.attach(engine)
        try await engine.loadStoreRuntime(maxMessageBytes: 4_096)
        try await engine.execute("""
            const useBig = defineStore('big', { state: () => ({ rows: [] }), actions: {
              fill(n) { const r = []; for (let i = 0; i < n; i++) r.push('row ' + i); this.rows = r; return r.length },
            } });
            useBig();
            """, sourceURL: "big.js")
        do {
            let kept = try await hub.dispatch(store: "big", action: "fill", args: [5_000]) // about 50 KB of writes
            Issue.record("the dispatch reported \(kept) although its writes were dropped")
        } catch StateHubError.writesDiscarded {}
        // The page answered the resync with a state over the cap as well; let it settle.
        _ = try await engine.evaluate("1")
        _ = try await engine.evaluate("1")
        let warnings = console.withLock { $0 }.filter { $0.contains("transfer_too_large") }
        #expect(warnings.count == 2, "\(console.withLock { $0 })")
        #expect(warnings.first?.contains("native refused a message of store \"big\"") == true, "\(warnings)")
        let dropped = hub.problems.filter { $0.description.contains("over 20000 bytes, the most a page may hold unfinished") }
        #expect(dropped.count == 2, "\(hub.problems)")
        #expect(hub.state(of: "big")?["rows"] == [], "the last good mirror stays")
        await engine.close()
    }

    @Test func aContinuationMustMatchTheOpenTransfer() {
        let assembler = ChunkAssembler()
        _ = assembler.add(page: "p", storeId: "s", transfer: "t1-aa", index: 0, count: 2, data: "{")
        let (wrong, _) = assembler.add(page: "p", storeId: "s", transfer: "t2", index: 1, count: 2, data: "}")
        guard case .failed = wrong else { Issue.record("\(wrong)"); return }
        // A page's transfers are its own: another page's chunk 0 abandons nothing here.
        _ = assembler.add(page: "p", storeId: "s", transfer: "t3", index: 0, count: 2, data: "{")
        let (other, dropped) = assembler.add(page: "q", storeId: "s", transfer: "t3", index: 0, count: 2, data: "{")
        #expect(dropped == nil)
        guard case .incomplete = other else { Issue.record("\(other)"); return }
    }

    /// The hostile reproduction: a script of the page forges chunk 0 of a transfer and never
    /// finishes it; the plugin's next real transfer still reaches the mirror, and the forged
    /// one is reported as abandoned.
    @Test func aForgedTransferDoesNotBreakALegitimateOne() async throws {
        let page = try await HostedPage.make(.init(
            bundles: [.init(path: "big.js", source: """
                const useBig = defineStore('big', { state: () => ({ rows: [] }), actions: {
                  fill(n) { const r = []; for (let i = 0; i < n; i++) r.push('row ' + i); this.rows = r; return r.length },
                } });
                useBig();
                """)],
            maximumMessageBytes: 4_096))
        for transfer in ["t1", "t2", "t3"] {
            page.hub.receive(Self.chunk(transfer, 0, of: 5, "{", store: "forged"), from: page.engine.pageID)
        }
        // Each abandoned transfer asked for a resync; the engine's queue is FIFO, so after this
        // the page has answered them.
        _ = try await page.engine.evaluate("1")
        #expect(try await page.hub.dispatch(store: "big", action: "fill", args: [2_000]) == 2_000)
        let engineState = try await page.engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value.big)")
        #expect(page.hub.state(of: "big") == engineState)
        #expect(page.hub.state(of: "big")?["rows"]?.arrayValue?.count == 2_000)
        #expect(page.hub.problems.contains { $0.description.contains("transfer t3 abandoned after 1 of 5 chunks") }, "\(page.hub.problems)")
        await page.close()
    }

    /// A bad chunk header (`count: 1e300`, for one) is refused naming the field and what it
    /// should be, not as a blanket "chunk without transfer, index, count or data".
    @Test func aBadChunkHeaderIsNamedByItsField() async throws {
        let hub = GlobalStateHub()
        try await hub.attach(SilentPage())
        func chunk(_ payload: String) -> String { #"{"v":1,"storeId":"s","messageId":"c","type":"chunk","payload":\#(payload)}"# }
        hub.receive(chunk(#"{"transfer":"t1","index":0,"count":1e300,"data":"{"}"#), from: "p")
        hub.receive(chunk(#"{"transfer":"t1","index":-1,"count":2,"data":"{"}"#), from: "p")
        hub.receive(chunk(#"{"index":0,"count":2,"data":"{"}"#), from: "p")
        hub.receive(chunk(#"{"transfer":"t1","index":0,"count":2,"data":7}"#), from: "p")
        #expect(hub.problems.map(\.description) == [
            "page p, store s: malformed message: chunk with payload.count 1e+300: expected a whole number of chunks from 1 to \(GlobalStateHub.maximumChunkCount)",
            "page p, store s: malformed message: chunk with payload.index -1: expected a whole number from 0 to count - 1",
            "page p, store s: malformed message: chunk without payload.transfer (a string)",
            "page p, store s: malformed message: chunk with payload.data 7: expected a string",
        ])
    }
}

/// A page that never runs anything: for hub-logic checks of what arrives.
private final class SilentPage: PageTransport, Sendable {
    let pageID = "p"
    func receiveMessages(on channel: String, _ receiver: @escaping @Sendable (String) -> Void) async throws {}
    func send(_ message: String, toFunction functionPath: String, onFailure: (@Sendable (any Error) -> Void)?) {}
    func onClose(_ handler: @escaping @Sendable () -> Void) {}
}
