import Testing
@testable import JSEngine

/// Promises awaited from Swift, promises Swift settles later, and rejections nobody handles.
@Suite("Promises", .tags(.engine))
struct PromiseTests {
    @Test func awaitsFulfilment() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluateAndAwait("Promise.resolve({ok: true})") == ["ok": true])
        #expect(try await engine.evaluateAndAwait("(async () => { await null; await 0; return [1, 2]; })()") == [1, 2])
        // A value that is not a promise comes back directly.
        #expect(try await engine.evaluateAndAwait("40 + 2") == 42)
        // Settled by a timer the real clock fires.
        #expect(try await engine.evaluateAndAwait("new Promise(r => setTimeout(() => r('late'), 20))") == "late")
    }

    @Test func rejectionBecomesJavaScriptErrorWithStack() async throws {
        let engine = try JavaScriptEngine()
        let source = "async function load() { await null; throw new TypeError('no such store'); }\nload()"
        let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluateAndAwait(source, sourceURL: "load.js") }
        #expect(error?.name == "TypeError")
        #expect(error?.message == "no such store")
        #expect(error?.stack?.contains("load@load.js:1") == true)
        let plain = await #expect(throws: JavaScriptError.self) { try await engine.evaluateAndAwait("Promise.reject('just text')") }
        #expect(plain?.message == "just text")
        #expect(plain?.thrownValue == "just text")
        // An awaited rejection is handled: nothing is reported as unhandled.
        #expect(await engine.unhandledErrors.isEmpty)
    }

    @Test func callAndAwaitHeldFunction() async throws {
        let engine = try JavaScriptEngine()
        let fetch = try await engine.function("async function (id) { await null; if (id < 0) throw new Error('bad id ' + id); return {id}; }")
        #expect(try await engine.callAndAwait(fetch, [7]) == ["id": 7])
        let error = await #expect(throws: JavaScriptError.self) { try await engine.callAndAwait(fetch, [-1]) }
        #expect(error?.message == "bad id -1")
    }

    @Test func promiseThatNeverSettlesTimesOut() async throws {
        let engine = try JavaScriptEngine()
        let start = ContinuousClock.now
        await #expect(throws: EngineError.timeout(after: .milliseconds(100))) {
            try await engine.evaluateAndAwait("new Promise(() => {})", timeout: .milliseconds(100))
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(100)) // no upper bound: a loaded machine is slow, not wrong
        // The engine keeps working after the timeout.
        #expect(try await engine.evaluate("'alive'") == "alive")
    }

    @Test func bindAsyncSettlesLater() async throws {
        let engine = try JavaScriptEngine()
        // Each closure suspends before it answers: the promise settles after the call returned.
        try await engine.bindAsync("fetchUser", on: "api") { arguments in
            await Task.yield()
            return ["name": "Ada", "id": arguments.first ?? nil]
        }
        try await engine.bindAsync("failLater", on: "api") { _ in
            await Task.yield()
            throw BindingTests.CodedRefusal()
        }
        #expect(try await engine.evaluate("api.fetchUser(1) instanceof Promise") == true)
        #expect(try await engine.evaluateAndAwait("api.fetchUser(3).then(u => u.name + '#' + u.id)") == "Ada#3")
        let caught = try await engine.evaluateAndAwait("api.failLater().then(() => 'no', e => [e.name, e.message, e.code])")
        #expect(caught == ["AuthError", "token expired", "E_AUTH"])
        let uncaught = await #expect(throws: JavaScriptError.self) { try await engine.evaluateAndAwait("api.failLater()") }
        #expect(uncaught?.message == "token expired")
        // Many in flight at once all settle, each with its own value.
        let all = try await engine.evaluateAndAwait("Promise.all(Array.from({length: 20}, (_, i) => api.fetchUser(i).then(u => u.id)))")
        #expect(all == .array((0..<20).map { .number(Double($0)) }))
    }

    @Test func errorThrownInsideThenIsReported() async throws {
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(onUnhandledError: { reported.append($0) }))
        try await engine.evaluate("Promise.resolve(1).then(function handler() { throw new Error('inside then'); })", sourceURL: "then.js")
        #expect(await reported.wait(forCount: 1))
        let first = try #require(reported.values.first)
        #expect(first.kind == .unhandledRejection)
        #expect(first.error.message == "inside then")
        #expect(first.error.stack?.contains("handler@then.js:1") == true)
        #expect(await engine.unhandledErrors == [first])
        #expect(first.description.hasPrefix("unhandled promise rejection: "))
    }

    @Test func unhandledRejectionIsReportedAndHandledOneIsNot() async throws {
        let reported = Recorder<UnhandledError>()
        let engine = try JavaScriptEngine(configuration: .init(onUnhandledError: { reported.append($0) }))
        try await engine.evaluate("Promise.reject(new RangeError('nobody listens'))")
        try await engine.evaluate("Promise.reject(new Error('handled')).catch(() => {})")
        try await engine.evaluate("(async () => { throw 'thrown text'; })()")
        #expect(await reported.wait(forCount: 2))
        // Reports are made on the engine thread as each turn ends: a call after those turns
        // returns once every report of theirs is made, so none is still on its way.
        try await engine.evaluate("0")
        let errors = await engine.unhandledErrors
        #expect(errors.map(\.error.message) == ["nobody listens", "thrown text"])
        #expect(errors.first?.error.name == "RangeError")
        #expect(errors.allSatisfy { $0.kind == .unhandledRejection })
        await engine.clearUnhandledErrors()
        #expect(await engine.unhandledErrors.isEmpty)
    }

    @Test func rejectionFromTimerIsReported() async throws {
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual))
        try await engine.evaluate("setTimeout(() => { Promise.reject(new Error('from a timer')); }, 10)")
        #expect(await engine.unhandledErrors.isEmpty)
        try await engine.advanceClock(by: .milliseconds(10))
        #expect(await engine.unhandledErrors.map(\.error.message) == ["from a timer"])
    }
}
