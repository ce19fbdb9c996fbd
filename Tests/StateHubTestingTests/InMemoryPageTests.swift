import Clocks
import JSEngine
import StateHub
import StateHubTesting
import Testing

/// The in-memory page and the whole-value expectations, driving a real hub.
@Suite("In-memory page", .tags(.unit))
struct InMemoryPageTests {
    @Test func mirrorsWhatThePagePosts() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "checkout")
        try await hub.attach(page)
        page.announce(store: "cart", state: ["items": [], "coupon": nil])
        page.mutate(store: "cart", ops: [
            .splice(path: [.key("items")], index: 0, deleteCount: 0, items: [["sku": "A1", "qty": 2]]),
            .set(path: [.key("coupon")], value: "WELCOME"),
        ])
        expectMirror(of: hub, store: "cart", equals: ["items": [["sku": "A1", "qty": 2]], "coupon": "WELCOME"])
        expectProblems(of: hub, equal: [])
        #expect(hub.hosts(of: "cart") == ["checkout"])
    }

    @Test func dispatchIsSentAndAnswered() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: ["n": 0])
        async let result = hub.dispatch(store: "cart", action: "add", args: [2])
        let sent = await page.nextSent()
        #expect(sent.function == "nativeBridge.dispatch")
        #expect(sent.type == "dispatch_action")
        #expect(sent.payload == ["action": "add", "args": [2]])
        page.mutate(store: "cart", ops: [.set(path: [.key("n")], value: 2)])
        page.answer(sent, value: 2)
        #expect(try await result == 2)
        expectMirror(of: hub, store: "cart", equals: ["n": 2])
    }

    /// `action_result` without `value` is what `JSON.stringify` leaves of `value: undefined`.
    @Test func aResultWithoutValueIsUndefined() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: [:])
        async let answered = hub.dispatch(store: "cart", action: "clear")
        page.answer(await page.nextSent())  // seq 2
        #expect(try await answered.isUndefined)
        async let bare = hub.dispatch(store: "cart", action: "clear")
        let id = try #require(await page.nextSent().messageId)
        let result: JSONValue = ["v": 1, "storeId": "cart", "messageId": .string(id), "seq": 3, "type": "action_result", "payload": ["ok": true]]
        _ = page.post(result.jsonText(), on: GlobalStateHub.channel)
        #expect(try await bare == ["$type": "undefined"])
        #expect(hub.problems.isEmpty)
    }

    @Test func aFailedActionIsThrown() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: [:])
        async let result = hub.dispatch(store: "cart", action: "pay")
        page.fail(await page.nextSent(), message: "card declined")
        do {
            _ = try await result
            Issue.record("pay did not throw")
        } catch StateHubError.actionThrew(_, _, let failure) {
            #expect(failure.message == "card declined")
        }
    }

    @Test func aSequenceGapIsOneProblemAndAResyncRequest() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "p")
        try await hub.attach(page)
        page.announce(store: "s", state: ["n": 0])
        page.postStoreMessage(store: "s", type: "apply_mutation", payload: ["mutations": []]) // seq 2
        page.nextSequenceSkip(store: "s") // seq 3 never arrives
        page.mutate(store: "s", ops: [.set(path: [.key("n")], value: 1)]) // seq 4
        expectProblems(of: hub, equal: [HubProblem(pageID: "p", storeId: "s", kind: .sequenceGap(expected: 3, received: 4))])
        let resync = await page.nextSent()
        #expect(resync.type == "request_sync")
    }

    @Test func timeoutsFollowTheHubsClock() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: [:])
        let result = Task { try await hub.dispatch(store: "cart", action: "never", timeout: .seconds(30)) }
        _ = await page.nextSent() // the dispatch is pending
        await clock.advance(by: .seconds(29))
        #expect(hub.problems.isEmpty)
        await clock.advance(by: .seconds(1))
        await #expect(throws: StateHubError.timeout(store: "cart", action: "never", after: .seconds(30))) { try await result.value }
    }

    @Test func aSoonerDeadlineWakesTheSweeperSooner() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: [:])
        let slow = Task { try await hub.dispatch(store: "cart", action: "slow", timeout: .seconds(60)) }
        let first = await page.nextSent()
        let quick = Task { try await hub.dispatch(store: "cart", action: "quick", timeout: .seconds(5)) }
        _ = await page.nextSent()
        await clock.advance(by: .seconds(5))
        await #expect(throws: StateHubError.timeout(store: "cart", action: "quick", after: .seconds(5))) { try await quick.value }
        page.answer(first, value: "done")
        #expect(try await slow.value == "done")
    }

    @Test func closingThePageFailsPendingDispatches() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "closing")
        try await hub.attach(page)
        page.announce(store: "cart", state: [:])
        let result = Task { try await hub.dispatch(store: "cart", action: "never") }
        _ = await page.nextSent()
        page.close()
        await #expect(throws: StateHubError.engineGone(store: "cart", pageID: "closing")) { try await result.value }
        expectMirror(of: hub, store: "cart", equals: nil)
    }
}

/// The expectations fail when they should, naming what differs.
@Suite("Whole-value expectations", .tags(.unit))
struct ExpectationTests {
    @Test func aDifferentMirrorIsAnIssue() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "cart", state: ["items": [["sku": "A1", "qty": 2]]])
        withKnownIssue {
            expectMirror(of: hub, store: "cart", equals: ["items": [["sku": "A1", "qty": 3]]])
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("qty: 3") && text.contains("qty: 2")
        }
        withKnownIssue {
            expectProblems(of: hub, equal: [HubProblem(pageID: "page", storeId: "cart", kind: .unknownStore)])
        }
    }
}

/// The README's example, kept compiling and passing.
@Suite("README example", .tags(.unit))
struct ReadmeExampleTests {
    @Test func payTimesOutAndTheCartIsUntouched() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let page = InMemoryPage(pageID: "checkout")
        try await hub.attach(page)
        page.announce(store: "cart", state: ["items": []])
        page.mutate(store: "cart", ops: [.splice(path: [.key("items")], index: 0, deleteCount: 0, items: [["sku": "A1"]])])

        let pay = Task { try await hub.dispatch(store: "cart", action: "pay", timeout: .seconds(30)) }
        let sent = await page.nextSent()
        #expect(sent.payload == ["action": "pay", "args": []])
        await clock.advance(by: .seconds(30))
        await #expect(throws: StateHubError.timeout(store: "cart", action: "pay", after: .seconds(30))) { try await pay.value }

        expectMirror(of: hub, store: "cart", equals: ["items": [["sku": "A1"]]])
        expectProblems(of: hub, equal: [])
    }
}
