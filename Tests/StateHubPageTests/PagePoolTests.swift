import Foundation
import JSEngine
import StateHub
import StateHubPage
import Testing

/// docs/pool.md, "The pool": warm pages with the runtime loaded, refill, taken empty, closed.
@Suite(.tags(.engine)) struct PagePoolTests {
    @Test func aWarmPageHasTheRuntimeAndMirrorsTheBundleItLoads() async throws {
        let pool = PagePool(configuration: .init(page: .init(name: "cart"), size: 2))
        try await pool.warmUp()
        #expect(await pool.warmCount == 2)
        let page = try await pool.take()
        #expect(await pool.statistics.warm == 1)
        #expect(await pool.statistics.cold == 0)
        // Runtime, plugin and bridge client were loaded before the take.
        #expect(try await page.engine.evaluate("typeof defineStore + ' ' + typeof StateHubSync + ' ' + typeof invokeNative") == "function object function")
        try await page.load(SnapshotStartTests.cart)
        #expect(page.hub.state(of: "cart")?["count"] == 0)
        #expect(try await page.hub.dispatch(store: "cart", action: "add", args: ["A1"]) == .init(TaggedValue.undefined))
        #expect(page.hub.state(of: "cart")?["count"] == 1)
        // The refill brings the pool back to its size; warmUp waits for it.
        try await pool.warmUp()
        #expect(await pool.warmCount == 2)
        #expect(await pool.statistics.built == 3)
        await page.close()
        await pool.close()
    }

    /// A pool's pages take the dispatch spin of their configuration, not the default: the page's
    /// configuration reaches each page's hub.
    @Test func poolPagesTakeTheSpinOfTheirConfiguration() async throws {
        var configuration = HostedPage.Configuration(name: "cart")
        configuration.dispatchSpin = .zero
        configuration.idleSpin = .zero
        let pool = PagePool(configuration: .init(page: configuration, size: 1))
        let page = try await pool.take()
        #expect(page.hub.configuration.dispatchSpin == .zero)
        try await page.load(SnapshotStartTests.cart)
        #expect(try await page.hub.dispatch(store: "cart", action: "add", args: ["A1"]) == .init(TaggedValue.undefined))
        #expect(page.hub.state(of: "cart")?["count"] == 1)
        await page.close()
        await pool.close()
        let plain = try await HostedPage.make(.init(name: "plain"))
        #expect(plain.hub.configuration.dispatchSpin == .microseconds(50))
        await plain.close()
    }

    @Test func pagesHaveTheirOwnNamesAndHubs() async throws {
        let pool = PagePool(configuration: .init(page: .init(name: "app"), size: 2))
        try await pool.warmUp()
        let a = try await pool.take()
        let b = try await pool.take()
        #expect(a.engine.pageID != b.engine.pageID)
        #expect([a.engine.pageID, b.engine.pageID].allSatisfy { $0.hasPrefix("app-") })
        try await a.load(SnapshotStartTests.cart)
        #expect(a.hub.storeIDs == ["cart"])
        #expect(b.hub.storeIDs == [])
        await a.close()
        await b.close()
        await pool.close()
    }

    @Test func takenEmptyItBuildsAPageItselfAndTryTakeSaysNil() async throws {
        let pool = PagePool(configuration: .init(size: 1))
        // Never warmed: nothing is ready.
        #expect(try await pool.tryTake() == nil)
        let page = try await pool.take()
        try await page.load(SnapshotStartTests.cart)
        #expect(page.hub.state(of: "cart") != nil)
        let statistics = await pool.statistics
        #expect(statistics.warm + statistics.cold == 1)
        await page.close()
        await pool.close()
    }

    @Test func theFirstTakeOfAFreshPoolIsCold() async throws {
        let pool = PagePool(configuration: .init(size: 1))
        let page = try await pool.take()
        #expect(await pool.statistics.cold == 1)
        #expect(await pool.statistics.warm == 0)
        await page.close()
        await pool.close()
    }

    @Test func aPoolWhosePagesCannotBeSetUpSaysWhyOnWarmUpAndTake() async throws {
        // A 1 ns time limit stops the engine's or the runtime's own scripts: no page can be built
        // (the engine's start throws `EngineError`, a later part `HostedPageError.setUp`).
        let pool = PagePool(configuration: .init(page: .init(timeLimit: .nanoseconds(1)), size: 1))
        func isSetUpFailure(_ error: any Error) -> Bool {
            if case HostedPageError.setUp = error { return true }
            if case EngineError.executionTimeLimitExceeded = error { return true }
            return false
        }
        await #expect { try await pool.warmUp() } throws: { isSetUpFailure($0) }
        #expect(await pool.statistics.lastRefillError != nil)
        #expect(await pool.warmCount == 0)
        await #expect { _ = try await pool.take() } throws: { isSetUpFailure($0) }
        #expect(await pool.statistics.cold == 1)
        await pool.close()
    }

    @Test func aClosedPoolClosesItsWarmPagesAndRefusesTakes() async throws {
        let pool = PagePool(configuration: .init(size: 1))
        try await pool.warmUp()
        await pool.close()
        #expect(await pool.warmCount == 0)
        await #expect(throws: PagePoolError.closed) { _ = try await pool.take() }
        await #expect(throws: PagePoolError.closed) { try await pool.warmUp() }
    }

    @Test func aTakenPageHydratesFromTheFolderGiven() async throws {
        let folder = SnapshotStartTests.Folder()
        try folder.snapshots.save(storeId: "cart", state: try JSONValue(parsing: SnapshotStartTests.goodState))
        let pool = PagePool(configuration: .init(size: 1))
        try await pool.warmUp()
        let page = try await pool.take(snapshots: folder.snapshots)
        try await page.load(SnapshotStartTests.cart)
        #expect(try await page.engine.evaluate("firstSeen.count") == 1)
        #expect(page.hub.state(of: "cart")?["count"] == 1)
        await page.close()
        await pool.close()
    }
}
