import Testing
@testable import JSEngine

/// `performance`, `crypto`, `structuredClone`, `TextEncoder`/`TextDecoder`, `atob`/`btoa`, aliases.
@Suite("Web globals", .tags(.engine))
struct WebGlobalsTests {
    @Test func windowAndSelfAliasGlobalThis() async throws {
        let engine = try JavaScriptEngine()
        #expect(try await engine.evaluate("window === globalThis && self === globalThis && window.window === window") == true)
        #expect(try await engine.evaluate("var declared = 1; window.declared + self.declared") == 2)
        #expect(try await engine.evaluate("window.assigned = 'w'; assigned") == "w")
    }

    @Test func performanceNowIsMonotonic() async throws {
        let engine = try JavaScriptEngine()
        let samples = try await engine.evaluate("const s = []; for (let i = 0; i < 1000; i++) s.push(performance.now()); s")
        let numbers = samples.arrayValue?.compactMap(\.numberValue) ?? []
        #expect(numbers.count == 1000)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 <= $1 })
        let first = try await engine.evaluate("performance.now()").numberValue ?? 0
        try await Task.sleep(for: .milliseconds(30))
        let second = try await engine.evaluate("performance.now()").numberValue ?? 0
        #expect(second - first >= 25)
    }

    @Test func performanceNowFollowsTheManualClock() async throws {
        let engine = try JavaScriptEngine(configuration: .init(clock: .manual))
        #expect(try await engine.evaluate("performance.now()") == 0)
        try await engine.advanceClock(by: .milliseconds(1_500))
        #expect(try await engine.evaluate("performance.now()") == 1_500)
        try await engine.advanceClock(by: .microseconds(250))
        #expect(try await engine.evaluate("performance.now()") == 1_500.25)
    }

    @Test func randomUUIDFormatAndUniqueness() async throws {
        let engine = try JavaScriptEngine()
        let uuids = try await engine.evaluate("Array.from({length: 1000}, () => crypto.randomUUID())").arrayValue?.compactMap(\.stringValue) ?? []
        #expect(uuids.count == 1000)
        #expect(Set(uuids).count == 1000)
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(uuids.allSatisfy { $0.wholeMatch(of: pattern) != nil })
    }

    @Test func getRandomValuesFills() async throws {
        let engine = try JavaScriptEngine()
        let result = try await engine.evaluate("""
            const bytes = crypto.getRandomValues(new Uint8Array(4096));
            const words = crypto.getRandomValues(new Uint32Array(16));
            const counts = new Set(bytes);
            [bytes.length, counts.size > 200, bytes.some(b => b !== 0), words.some(w => w > 255), crypto.getRandomValues(bytes) === bytes]
            """)
        #expect(result == [4096, true, true, true, true])
        let tooLarge = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("crypto.getRandomValues(new Uint8Array(65537))") }
        #expect(tooLarge?.name == "QuotaExceededError")
        let wrongType = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("crypto.getRandomValues(new Float64Array(2))") }
        #expect(wrongType?.name == "TypeMismatchError")
    }

    @Test func structuredCloneCopiesDeeply() async throws {
        let engine = try JavaScriptEngine()
        let result = try await engine.evaluate("""
            const date = new Date(86400000);
            const original = {
              map: new Map([['k', {v: 1}]]), set: new Set([1, 'two']), date, list: [1, {x: 2}],
              bytes: new Uint8Array([1, 2, 3]), re: /a+b/gi,
            };
            original.self = original;
            original.list.push(original.list);
            const copy = structuredClone(original);
            copy.map.get('k').v = 99;
            [
              copy !== original, copy.self === copy, copy.list[2] === copy.list,
              copy.map instanceof Map, original.map.get('k').v, copy.map.get('k').v,
              copy.set instanceof Set, copy.set.has('two'), copy.date instanceof Date, copy.date !== date,
              copy.date.getTime(), Array.from(copy.bytes), copy.re.source, copy.re.flags,
            ]
            """)
        #expect(result == [true, true, true, true, 1, 99, true, true, true, true, 86_400_000, [1, 2, 3], "a+b", "gi"])
    }

    @Test func structuredCloneRefusesFunctions() async throws {
        let engine = try JavaScriptEngine()
        let function = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("structuredClone({f() {}})") }
        #expect(function?.name == "DataCloneError")
        #expect(function?.message.contains("function") == true)
        let symbol = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("structuredClone(Symbol('s'))") }
        #expect(symbol?.name == "DataCloneError")
        #expect(try await engine.evaluate("try { structuredClone(() => 1) } catch (e) { e.name }") == "DataCloneError")
    }

    @Test func textEncoderDecoderRoundTrip() async throws {
        let engine = try JavaScriptEngine()
        let result = try await engine.evaluate("""
            const text = 'héllo 😀 中文 \\u0000 end';
            const bytes = new TextEncoder().encode(text);
            [Array.from(new TextEncoder().encode('é😀')), new TextDecoder().decode(bytes) === text,
             new TextDecoder().decode(bytes.buffer) === text, new TextEncoder().encoding, new TextDecoder('utf8').encoding,
             new TextDecoder().decode(new Uint8Array([0xff, 0x41])), new TextDecoder().decode(),
             Array.from(new TextEncoder().encode('\\uD800'))]
            """)
        #expect(result == [[0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80], true, true, "utf-8", "utf-8", "\u{FFFD}A", "", [0xEF, 0xBF, 0xBD]])
        let fatal = await #expect(throws: JavaScriptError.self) {
            try await engine.evaluate("new TextDecoder('utf-8', {fatal: true}).decode(new Uint8Array([0xc3]))")
        }
        #expect(fatal?.name == "TypeError")
        await #expect(throws: JavaScriptError.self) { try await engine.evaluate("new TextDecoder('latin1')") }
    }

    @Test func atobAndBtoa() async throws {
        let engine = try JavaScriptEngine()
        let result = try await engine.evaluate("""
            [btoa(''), btoa('f'), btoa('fo'), btoa('foo'), btoa('Hello, world!'), atob('SGVsbG8sIHdvcmxkIQ=='),
             atob('Zm8'), atob(' Zm9v\\n'), atob(btoa('\\u00ff\\u0000\\u0080')) === '\\u00ff\\u0000\\u0080']
            """)
        #expect(result == ["", "Zg==", "Zm8=", "Zm9v", "SGVsbG8sIHdvcmxkIQ==", "Hello, world!", "fo", "foo", true])
        let outsideLatin1 = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("btoa('😀')") }
        #expect(outsideLatin1?.name == "InvalidCharacterError")
        for bad in ["'a'", "'ab*d'", "'abcde'"] {
            let error = await #expect(throws: JavaScriptError.self) { try await engine.evaluate("atob(\(bad))") }
            #expect(error?.name == "InvalidCharacterError")
        }
    }
}
