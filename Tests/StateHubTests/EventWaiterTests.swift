import StateHubTestSupport
import Synchronization
import Testing

/// The shared waiter: it returns what it waited for, and fails loudly, naming what it waited
/// for, when the events end without it.
@Suite(.tags(.unit)) struct EventWaiterTests {
    @Test func returnsTheFirstWantedEvent() async {
        let (events, source) = AsyncStream<Int>.makeStream()
        Task { for n in 1...5 { source.yield(n) } }
        let found = await waitFor("an even number above 2", in: events) { $0 > 2 && $0 % 2 == 0 }
        #expect(found == 4)
    }

    @Test func eventsThatEndWithoutTheWantedOneAreAnIssueNamingIt() async {
        let (events, source) = AsyncStream<Int>.makeStream()
        source.yield(1)
        source.finish()
        await withKnownIssue {
            let found = await waitFor("a seven", in: events) { $0 == 7 }
            #expect(found == nil)
        } matching: { issue in
            issue.description.contains("a seven") && issue.description.contains("last seen: 1")
        }
    }

    @Test func aConditionIsCheckedOnEachNotification() async {
        let (notifications, notify) = AsyncStream<Void>.makeStream()
        let value = CountingBox()
        Task {
            for _ in 0..<3 { value.increment(); notify.yield() }
        }
        let held = await waitUntil("the counter to reach 3", notifiedBy: notifications) { value.current == 3 }
        #expect(held && value.current == 3)
    }

    @Test func notificationsThatEndWithTheConditionFalseAreAnIssue() async {
        let (notifications, notify) = AsyncStream<Void>.makeStream()
        notify.yield()
        notify.finish()
        await withKnownIssue {
            let held = await waitUntil("something that never holds", notifiedBy: notifications, observed: { "false, as always" }) { false }
            #expect(!held)
        } matching: { issue in
            issue.description.contains("something that never holds") && issue.description.contains("false, as always")
        }
    }
}

private final class CountingBox: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var current: Int { value.withLock { $0 } }
}
