import Testing
@testable import JSEngine

@Suite("Console", .tags(.engine))
struct ConsoleTests {
    @Test func routesEveryLevelToOnConsole() async throws {
        let messages = Recorder<ConsoleMessage>()
        let engine = try JavaScriptEngine(configuration: .init(onConsole: { messages.append($0) }))
        try await engine.evaluate("""
            console.log('plain', 1, true, null);
            console.info('info');
            console.warn('careful');
            console.error('broken');
            console.debug('details');
            """)
        #expect(messages.values == [
            ConsoleMessage(level: .log, text: "plain 1 true null"),
            ConsoleMessage(level: .info, text: "info"),
            ConsoleMessage(level: .warn, text: "careful"),
            ConsoleMessage(level: .error, text: "broken"),
            ConsoleMessage(level: .debug, text: "details"),
        ])
    }

    @Test func printsObjectsAsJSON() async throws {
        let messages = Recorder<ConsoleMessage>()
        let engine = try JavaScriptEngine(configuration: .init(onConsole: { messages.append($0) }))
        try await engine.evaluate("""
            console.log({b: 1, 2: 'two', nested: {list: [1, 'x', null]}});
            console.log([1, {a: undefined}], undefined);
            console.log(function named() {}, Symbol('s'), 10n);
            console.log(new Map([['k', 1]]), new Set([1, 2]));
            const cyclic = {}; cyclic.self = cyclic; console.log(cyclic);
            console.log('😀', 'ünïcödé');
            console.log({ f() {}, big: 1n, s: Symbol('q'), text: 'a"\\u0001b' });
            console.log(NaN, -Infinity, -0, 1.5, [NaN, Infinity, -0]);
            """)
        let texts = messages.values.map(\.text)
        #expect(texts.count == 8)
        #expect(texts[safe: 0] == #"{"2":"two","b":1,"nested":{"list":[1,"x",null]}}"#)
        // What JSON cannot say is written as JavaScript shows it, unquoted.
        #expect(texts[safe: 1] == #"[1,{"a":undefined}] undefined"#)
        #expect(texts[safe: 2] == "[Function: named] Symbol(s) 10n")
        #expect(texts[safe: 3] == #"{"Map":[["k",1]]} {"Set":[1,2]}"#)
        #expect(texts[safe: 4]?.hasPrefix("[Object: ") == true)
        #expect(texts[safe: 5] == "😀 ünïcödé")
        #expect(texts[safe: 6] == #"{"f":[Function: f],"big":1n,"s":Symbol(q),"text":"a\"\u0001b"}"#)
        // Numbers JSON has no word for are not `null`.
        #expect(texts[safe: 7] == "NaN -Infinity -0 1.5 [NaN,Infinity,0]")
    }

    @Test func printsErrorsWithStack() async throws {
        let messages = Recorder<ConsoleMessage>()
        let engine = try JavaScriptEngine(configuration: .init(onConsole: { messages.append($0) }))
        try await engine.evaluate("function fail() { return new TypeError('bad input'); }\nconsole.error('failed:', fail())", sourceURL: "log.js")
        let text = messages.values.first?.text ?? ""
        #expect(messages.values.first?.level == .error)
        #expect(text.hasPrefix("failed: TypeError: bad input\n"))
        #expect(text.contains("fail@log.js:1"))
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
