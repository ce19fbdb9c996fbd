import Clocks
import StateHub
import StateHubTesting
import Testing

/// Dispatch deadlines and answers, on an in-memory page and a test clock: no engine, no sleeps.
@Suite("Dispatch timeouts", .tags(.unit))
struct DispatchTimeoutTests {
    @Test func aDispatchNobodyAnswersTimesOutWhenTheClockSaysSo() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let page = InMemoryPage(pageID: "actions")
        try await hub.attach(page)
        page.announce(store: "actions", state: ["n": 0])
        let pending = Task { try await hub.dispatch(store: "actions", action: "never", timeout: .milliseconds(100)) }
        _ = await page.nextSent()
        await clock.advance(by: .milliseconds(99))
        await clock.advance(by: .milliseconds(1))
        await #expect(throws: StateHubError.timeout(store: "actions", action: "never", after: .milliseconds(100))) { try await pending.value }
        expectProblems(of: hub, equal: [])
    }

    @Test func theDefaultTimeoutComesFromTheConfiguration() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(dispatchTimeout: .seconds(30), clock: clock))
        let page = InMemoryPage()
        try await hub.attach(page)
        page.announce(store: "s", state: [:])
        let pending = Task { try await hub.dispatch(store: "s", action: "never") }
        _ = await page.nextSent()
        await clock.advance(by: .seconds(30))
        await #expect(throws: StateHubError.timeout(store: "s", action: "never", after: .seconds(30))) { try await pending.value }
    }

    /// A page that is running a script (or ran one a moment ago) is working on the answer,
    /// only slowly: the hub waits past the deadline, up to ten timeouts in all; a page idle
    /// for longer than a moment gets the plain deadline.
    @Test func aWorkingPageIsWaitedForUpToTenTimeouts() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let page = InMemoryPage(pageID: "busy")
        try await hub.attach(page)
        page.announce(store: "s", state: ["n": 0])
        page.idleFor = .zero
        let late = Task { try await hub.dispatch(store: "s", action: "slow", timeout: .milliseconds(100)) }
        let dispatch = await page.nextSent()
        await clock.advance(by: .milliseconds(500))
        page.idleFor = .milliseconds(300)
        await clock.advance(by: .milliseconds(200))
        page.answer(dispatch, value: 7)
        #expect(try await late.value == 7, "answered after seven timeouts while the page worked")

        page.idleFor = .zero
        let stuck = Task { try await hub.dispatch(store: "s", action: "spin", timeout: .milliseconds(100)) }
        _ = await page.nextSent()
        await clock.advance(by: .milliseconds(999))
        await clock.advance(by: .milliseconds(1))
        await #expect(throws: StateHubError.timeout(store: "s", action: "spin", after: .milliseconds(100))) { try await stuck.value }

        // A host that ends every script: a script still running after ten timeouts is waited
        // for, and the wait ends at the deadline once the page is idle.
        page.endsEveryScript = true
        let long = Task { try await hub.dispatch(store: "s", action: "long", timeout: .milliseconds(100)) }
        let longDispatch = await page.nextSent()
        await clock.advance(by: .milliseconds(3000))
        page.answer(longDispatch, value: 30)
        #expect(try await long.value == 30, "answered after thirty timeouts while a script ran")
        let ending = Task { try await hub.dispatch(store: "s", action: "ending", timeout: .milliseconds(100)) }
        _ = await page.nextSent()
        await clock.advance(by: .milliseconds(1500))
        page.idleFor = .seconds(2)
        await clock.advance(by: .milliseconds(100))
        await #expect(throws: StateHubError.timeout(store: "s", action: "ending", after: .milliseconds(100))) { try await ending.value }
        page.endsEveryScript = false

        let idle = Task { try await hub.dispatch(store: "s", action: "never", timeout: .milliseconds(100)) }
        _ = await page.nextSent()
        await clock.advance(by: .milliseconds(100))
        await #expect(throws: StateHubError.timeout(store: "s", action: "never", after: .milliseconds(100))) { try await idle.value }
    }

    @Test func onlyThePageADispatchWentToCanAnswerIt() async throws {
        let clock = TestClock()
        let hub = GlobalStateHub(configuration: .init(clock: clock))
        let target = InMemoryPage(pageID: "target")
        let intruder = InMemoryPage(pageID: "intruder")
        try await hub.attach(target)
        try await hub.attach(intruder)
        target.announce(store: "actions", state: ["n": 0])
        let pending = Task { try await hub.dispatch(store: "actions", action: "never", timeout: .milliseconds(300)) }
        let dispatch = await target.nextSent()
        intruder.answer(dispatch, value: "forged")
        await clock.advance(by: .milliseconds(300))
        await #expect(throws: StateHubError.timeout(store: "actions", action: "never", after: .milliseconds(300))) { try await pending.value }
        expectProblems(of: hub, equal: [
            HubProblem(pageID: "intruder", storeId: "actions", kind: .unmatchedResult(messageId: try #require(dispatch.messageId))),
        ])
        expectMirror(of: hub, store: "actions", equals: ["n": 0])
    }
}
