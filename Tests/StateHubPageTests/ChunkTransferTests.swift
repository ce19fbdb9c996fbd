import JSEngine
import StateHubPage
import Testing
@testable import StateHub

/// Issue 11, hostile finding 3: chunk transfers (PROTOCOL.md A.11) cannot pile up memory,
/// a forged transfer cannot break a legitimate one, and an abandoned transfer is reported.
@Suite struct ChunkTransferTests {
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
        guard case .failed(let reason) = over else { Issue.record("expected a refusal, got \(over)"); return }
        #expect(reason.contains("over 100 bytes"), "\(reason)")
        #expect(assembler.openBytes(page: "p") == 0)
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
}
