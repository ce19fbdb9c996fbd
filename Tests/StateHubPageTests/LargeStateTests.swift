import JSEngine
import StateHub
import StateHubPage
import Testing

/// A state over the message cap reaches the mirror in chunks (PROTOCOL.md A.11).
@Suite(.tags(.engine)) struct LargeStateTests {
    static let rows = HostedPage.Bundle(path: "rows.js", source: """
        const rows = [];
        for (let i = 0; i < 150000; i++) rows.push({ id: i, name: 'row number ' + i, qty: i % 7, note: 'abcdefghijklmnopqrstuvwxyz' });
        const useRows = defineStore('rows', { state: () => ({ rows }), actions: {
          bump(i) { this.rows[i].qty += 1; return this.rows[i].qty },
          replace(n) { const r = []; for (let i = 0; i < n; i++) r.push({ id: i, name: 'again ' + i }); this.rows = r; return r.length },
        } });
        useRows();
        """)

    @Test func oneHundredFiftyThousandRowsEndMirrored() async throws {
        let page = try await HostedPage.make(.init(bundles: [Self.rows], timeLimit: .seconds(60)))
        #expect(try await page.hub.dispatch(store: "rows", action: "bump", args: [149_999]) == 4)
        #expect(try await page.hub.dispatch(store: "rows", action: "replace", args: [160_000]) == 160_000)
        let mirror = try #require(page.hub.state(of: "rows"))
        // state.value is Pinia's map of store states: `.rows` is the store "rows".
        let engineState = try await page.engine.evaluate("StateHubSync.encodeValue(getActivePinia().state.value.rows)")
        #expect(mirror["rows"]?.arrayValue?.count == 160_000)
        let equal = mirror == engineState  // compared apart: a failure must not print 10 MB
        #expect(equal)
        #expect(page.hub.problems.isEmpty, "\(page.hub.problems)")
        await page.close()
    }

    @Test func chunksOutOfOrderAreDroppedWithAProblem() async throws {
        let page = try await HostedPage.make(.init(bundles: [.init(path: "s.js", source: "defineStore('s', { state: () => ({ a: 1 }) })()")]))
        let chunk = #"{"v":1,"storeId":"s","messageId":"t9.1","type":"chunk","payload":{"transfer":"t9","index":1,"count":2,"data":"x"}}"#
        page.hub.receive(chunk, from: page.engine.pageID)
        #expect(page.hub.problems.contains { $0.description.contains("out of order") }, "\(page.hub.problems)")
        #expect(page.hub.state(of: "s") == ["a": 1])
        await page.close()
    }
}
