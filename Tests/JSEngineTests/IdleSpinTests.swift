import Synchronization
import Testing
@testable import JSEngine

/// The engine thread's short spin before it sleeps (docs/engine.md, "Threading model"): work
/// pushed while it spins, just as it stops, or long after, is never left waiting.
@Suite("Idle spin", .tags(.engine))
struct IdleSpinTests {
    @Test(arguments: [Duration.microseconds(50), .zero])
    func workArrivingAtAnyMomentRuns(idleSpin: Duration) async throws {
        var configuration = JavaScriptEngine.Configuration(name: "idle-spin")
        configuration.idleSpin = idleSpin
        let engine = try JavaScriptEngine(configuration: configuration)
        try await engine.evaluate("var calls = 0")
        // Gaps shorter than the spin, around it and far longer: a push during the spin, one
        // racing its end, and one to a sleeping thread (which must be woken).
        let gaps: [Duration] = [.zero, .microseconds(10), .microseconds(45), .microseconds(55), .microseconds(200), .milliseconds(2)]
        for round in 0..<300 {
            let gap = gaps[round % gaps.count]
            if gap > .zero { try await Task.sleep(for: gap) }
            #expect(try await engine.evaluate("++calls") == .number(Double(round + 1)))
        }
        // Posted closures (what `PageTransport.send` uses) from several threads at once.
        let seen = Counter()
        try await engine.installMessageHandler(named: "seen") { _ in seen.add() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<100 {
                        engine.send("x", toFunction: "webkit.messageHandlers.seen.postMessage", onFailure: nil)
                        try await Task.sleep(for: .microseconds(30))
                    }
                }
            }
            try await group.waitForAll()
        }
        // Everything posted before this call ran before it (one FIFO queue).
        #expect(try await engine.evaluate("calls") == .number(300))
        #expect(seen.value == 400)
    }
}

private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
