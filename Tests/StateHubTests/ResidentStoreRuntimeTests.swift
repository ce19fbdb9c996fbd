import JSEngine
import StateHub
import Testing

/// The store runtime is shared by every engine of the process, not copied into each (docs/engine.md,
/// "Memory per engine"): only ASCII text can be, so a character outside ASCII in js/runtime or
/// js/plugin (write `\u{1F34D}` in a string, `...` in a comment) fails here instead of quietly
/// costing every page its own copy, twice as large (JavaScriptCore keeps such text as UTF-16).
@Suite("Resident store runtime")
struct ResidentStoreRuntimeTests {
    @Test func everyScriptOfTheStoreRuntimeIsShared() {
        #expect(StoreScripts.residentStoreRuntime.count == StoreScripts.storeRuntime.count)
        for (name, script) in StoreScripts.residentStoreRuntime {
            #expect(script.isShared, "\(name) is not ASCII")
        }
    }

    @Test func aPageLoadsItAndMakesStores() async throws {
        let engine = try JavaScriptEngine()
        try await engine.loadStoreRuntime()
        let count = try await engine.evaluate("""
            const useCounter = defineStore('counter', { state: () => ({ n: 1 }), actions: { add() { this.n++; } } });
            const store = useCounter(); store.add(); store.n
            """)
        #expect(count == 2)
        // Pinia's messages keep their pineapple, written as an escape in the shared text.
        let message = try await engine.evaluate("try { defineStore({}); 'no error' } catch (e) { e.message }")
        #expect(message == "[🍍]: \"defineStore()\" must be passed a store id as its first argument.")
    }
}
