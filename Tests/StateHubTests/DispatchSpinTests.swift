import JSEngine
import StateHubTestSupport
import Testing
@testable import StateHub

/// A caller spinning for its answer before it parks (docs/hub.md, "Dispatch: how a caller waits").
@Suite("Dispatch spin", .tags(.engine))
struct DispatchSpinTests {
    @Test func anAnswerThatCameFirstIsTakenWhileSpinning() async throws {
        let reply = DispatchReply()
        reply.resume(with: .success(7))
        let (result, spun) = await reply.wait(spinningFor: .microseconds(50))
        #expect(try result.get() == 7)
        #expect(spun)
    }

    @Test func aParkedCallerIsResumedOnce() async throws {
        let reply = DispatchReply()
        let waiter = Task { await reply.wait(spinningFor: .zero) }
        await Task.yield()
        reply.resume(with: .success(1))
        reply.resume(with: .success(2)) // ignored: a dispatch is answered once
        let (result, spun) = await waiter.value
        #expect(try result.get() == 1)
        #expect(!spun)
    }

    @Test func aSecondAnswerBeforeTheWaitIsIgnored() async throws {
        let reply = DispatchReply()
        reply.resume(throwing: StateHubError.unknownStore("first"))
        reply.resume(with: .success(2))
        let (result, _) = await reply.wait(spinningFor: .microseconds(50))
        #expect(throws: StateHubError.unknownStore("first")) { try result.get() }
    }

    /// Misses in a row make 1, 3, 7… of the next dispatches park at once; a catch resets it.
    @Test func spinsThatMissAreSwitchedOffForAWhile() {
        let policy = DispatchSpinPolicy()
        let spin = Duration.microseconds(50)
        #expect(policy.budget(spin) == spin)
        policy.record(answeredWhileSpinning: false)
        #expect(policy.budget(spin) == .zero)
        #expect(policy.budget(spin) == spin)
        policy.record(answeredWhileSpinning: false)
        #expect((0..<3).map { _ in policy.budget(spin) } == [.zero, .zero, .zero])
        #expect(policy.budget(spin) == spin)
        policy.record(answeredWhileSpinning: true)
        #expect(policy.budget(spin) == spin)
        policy.record(answeredWhileSpinning: false)
        #expect(policy.budget(spin) == .zero)
        #expect(policy.budget(spin) == spin)
        #expect(policy.budget(.zero) == .zero)
    }

    /// Spinning callers, parked callers, callers on the page's thread and slow actions all get
    /// their own answer, with the spins on and off.
    @Test(arguments: [true, false])
    func everyCallerGetsItsAnswer(spin: Bool) async throws {
        var configuration = GlobalStateHub.Configuration()
        if !spin { configuration.dispatchSpin = .zero }
        let hub = GlobalStateHub(configuration: configuration)
        var engineConfiguration = JavaScriptEngine.Configuration(name: "spin")
        if !spin { engineConfiguration.idleSpin = .zero }
        let engine = try JavaScriptEngine(configuration: engineConfiguration)
        try await hub.attach(engine)
        try await engine.loadStoreRuntime()
        try await engine.execute("""
            defineStore('counter', {
              state: () => ({ n: 0 }),
              actions: {
                add(by) { this.n += by; return by; },
                async later(by) { await new Promise((r) => setTimeout(r, 2)); this.n += by; return by; },
              },
            })();
            """)
        #expect(engine.callerMaySpin)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<50 {
                        let by = task * 1_000 + index
                        let action = index % 10 == 9 ? "later" : "add"
                        let answer = try await hub.dispatch(store: "counter", action: action, args: [.number(Double(by))])
                        #expect(answer == .number(Double(by)))
                    }
                }
            }
            group.addTask {
                try await withTaskExecutorPreference(engine.taskExecutor) { () async throws -> Void in
                    #expect(!engine.callerMaySpin)
                    for index in 0..<50 {
                        let answer = try await hub.dispatch(store: "counter", action: "add", args: [.number(Double(index))])
                        #expect(answer == .number(Double(index)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let expected = (0..<4).reduce(0) { sum, task in sum + (0..<50).reduce(0) { $0 + task * 1_000 + $1 } } + (0..<50).reduce(0, +)
        #expect(hub.state(of: "counter")?["n"] == .number(Double(expected)))
        #expect(try await engineState(engine, "counter") == hub.state(of: "counter"))
    }

    /// A store replaced by a whole state (a resync) ends equal to the page's, whatever thread
    /// frees the old tree.
    @Test func aLargeStateReplacedByAResyncIsMirrored() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub)
        try await engine.execute("""
            globalThis.big = defineStore('big', { state: () => ({ rows: Array.from({ length: 2000 }, (_, i) => ({ id: i })) }) })();
            """)
        #expect(await mirror(of: hub, "big") { $0?["rows"]?.arrayValue?.count == 2000 })
        try await engine.execute("big.rows.push({ id: 2000 })")
        #expect(await mirror(of: hub, "big") { $0?["rows"]?.arrayValue?.count == 2001 })
        let changes = hub.changes(of: "big")
        hub.requestSync(store: "big")
        await waitFor("the resync's snapshot of big", in: changes) { if case .snapshot = $0.kind { true } else { false } }
        #expect(hub.state(of: "big")?["rows"]?.arrayValue?.count == 2001)
        #expect(try await engineState(engine, "big") == hub.state(of: "big"))
    }

    @Test func theChunkCheckReadsOnlyTheHeadsBytes() {
        #expect(GlobalStateHub.headMentionsChunk(#"{"v":1,"storeId":"s","messageId":"t1.0","type":"chunk","payload":{}}"#))
        #expect(!GlobalStateHub.headMentionsChunk(#"{"v":1,"storeId":"s","messageId":"w1","seq":1,"type":"apply_mutation","payload":{}}"#))
        // Past the first 400 bytes: not a chunk (as before); a multi-byte character at the cut is fine.
        #expect(!GlobalStateHub.headMentionsChunk(String(repeating: "é", count: 300) + #""type":"chunk""#))
        #expect(GlobalStateHub.headMentionsChunk(String(repeating: "é", count: 150) + #""type":"chunk""#))
        #expect(!GlobalStateHub.headMentionsChunk(#""type":"chun"#))
        #expect(!GlobalStateHub.headMentionsChunk(""))
    }
}
