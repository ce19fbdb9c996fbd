import JSEngine
import StateHub
import Testing

/// The store runtime's text stays ASCII (docs/engine.md, "Memory per engine"): JavaScriptCore keeps
/// the text of every script a page loaded, as UTF-16 — twice the size — when any character is
/// outside ASCII, so one `…` in a comment would cost every page about 213 KB more. Write `\u{1F34D}`
/// in a string and `...` in a comment.
@Suite("Store runtime text", .tags(.engine))
struct StoreRuntimeTextTests {
    @Test func everyScriptOfTheStoreRuntimeIsASCII() {
        for (name, source) in StoreScripts.storeRuntime {
            let outside = source.utf8.firstIndex { $0 >= 0x80 }
            #expect(outside == nil, "\(name) is not ASCII: line \(outside.map { source.utf8[..<$0].count { $0 == 0x0A } + 1 } ?? 0)")
        }
    }

    @Test func piniasMessagesKeepTheirPineappleWrittenAsAnEscape() async throws {
        let engine = try JavaScriptEngine()
        try await engine.loadStoreRuntime()
        let message = try await engine.evaluate("try { defineStore({}); 'no error' } catch (e) { e.message }")
        #expect(message == "[🍍]: \"defineStore()\" must be passed a store id as its first argument.")
        await engine.close()
    }
}
