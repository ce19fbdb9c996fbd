import JSEngine
import StateHub
import StateHubPage
import Testing
import Trace

@Suite(.tags(.engine)) struct HostedPageTests {
    static let counter = HostedPage.Bundle(path: "counter.js", source: """
        const useCounter = defineStore('counter', {
          state: () => ({ count: 0 }),
          actions: {
            add(n) { this.count += n; return this.count },
            spin() { while (true) {} },
            async title() { document.title = 'Counted'; return typeof invokeNative },
          },
        });
        useCounter();
        """)

    @Test func oneCallBuildsAPageWhoseStoresAreMirrored() async throws {
        let page = try await HostedPage.make(.init(bundles: [Self.counter]))
        let result = try await page.hub.dispatch(store: "counter", action: "add", args: [2])
        #expect(result == 2)
        #expect(page.hub.state(of: "counter") == ["count": 2])
        // The environment: document and invokeNative are there, as in `statehub run`.
        #expect(try await page.hub.dispatch(store: "counter", action: "title") == "function")
        await page.close()
    }

    /// Two pages on one hub (`Configuration.hub`): a transaction spans both, and closing one
    /// leaves the other attached (with a hub each, a unit could not reach the second page's
    /// store).
    @Test func pagesSharingAHubRunOneTransactionAcrossBoth() async throws {
        let hub = GlobalStateHub()
        let shop = try await HostedPage.make(.init(name: "shop", bundles: [Self.counter], hub: hub))
        let wishlist = HostedPage.Bundle(path: "wishlist.js", source: """
            defineStore('wishlist', {
              state: () => ({ items: [] }),
              actions: { add(sku) { if (sku === 'BAD') throw new Error('refused'); this.items.push(sku); } },
            })();
            """)
        let account = try await HostedPage.make(.init(name: "account", bundles: [wishlist], hub: hub))
        #expect(shop.hub === hub && account.hub === hub)
        try await hub.transaction { tx in
            try await tx.dispatch(store: "counter", action: "add", args: [1])
            try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
        }
        #expect(hub.state(of: "counter") == ["count": 1])
        #expect(hub.state(of: "wishlist") == ["items": ["A1"]])
        await #expect(throws: TransactionError.self) {
            try await hub.transaction { tx in
                try await tx.dispatch(store: "counter", action: "add", args: [5])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["BAD"])
            }
        }
        #expect(hub.state(of: "counter") == ["count": 1], "the first page's step was undone")
        await #expect(throws: HostedPageError.self) {
            _ = try await HostedPage.make(.init(name: "shop", hub: hub)) // a second "shop" on the hub
        }
        #expect(try await hub.dispatch(store: "counter", action: "add", args: [1]) == 2, "the refused page did not detach the first")
        await shop.close()
        #expect(hub.state(of: "counter") == nil)
        try await hub.dispatch(store: "wishlist", action: "add", args: ["B2"])
        #expect(hub.state(of: "wishlist") == ["items": ["A1", "B2"]])
        await account.close()
    }

    @Test func anActionPastTheTimeLimitIsATypedStopAProblemAndATraceRecord() async throws {
        let recorder = TraceRecorder()
        let page = try await HostedPage.make(.init(bundles: [Self.counter], timeLimit: .milliseconds(300), trace: recorder))
        await #expect {
            try await page.hub.dispatch(store: "counter", action: "spin")
        } throws: { error in
            guard case StateHubError.stopped(let store, let action, _, _) = error else { return false }
            return store == "counter" && action == "spin"
        }
        #expect(page.hub.problems.contains { if case .stopped(action: "spin", _) = $0.kind { true } else { false } })
        #expect(recorder.records.contains { $0.type == "stopped" && $0.store == "counter" })
        await page.close()
    }

    @Test func aBundleThatThrowsIsNamed() async throws {
        await #expect {
            _ = try await HostedPage.make(.init(bundles: [.init(path: "bad.js", source: "throw new Error('no')")]))
        } throws: { error in
            guard case HostedPageError.bundle(let path, let underlying) = error else { return false }
            return path == "bad.js" && (underlying as? JavaScriptError)?.message == "no"
        }
    }
}
