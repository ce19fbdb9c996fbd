import Foundation
import Testing

/// `statehub run --hot-swap FILE`: stores keep their state, the new
/// code's keys and actions arrive, the mirror matches, and setup stores that use each other work.
@Suite("statehub run --hot-swap", .tags(.integration))
struct RunHotSwapTests {
    @Test func swapsStoreCodeKeepingStateAndMirrors() async throws {
        let first = try StateHubBinary.script("""
            (() => {
              const useCart = defineStore('cart', { state: () => ({ items: [], legacy: 1 }), actions: { add(x) { this.items.push(x) } } })
              const useUser = defineStore('user', () => {
                const name = ref('Ana')
                const cart = useCart()
                return { name, count: computed(() => cart.items.length) }
              })
              useUser()
            })()
            """, named: "v1.js")
        let second = try StateHubBinary.script("""
            (() => {
              defineStore('cart', { state: () => ({ items: [], tags: new Map([['new', true]]) }), actions: { add(x) { this.items.push(x) } } })
            })()
            """, named: "v2.js")
        let result = try await StateHubBinary.run(["run", first.path, "--dispatch", "cart.add", #"["pen"]"#, "--hot-swap", second.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("⟳ hot-swapped \(second.path): cart"))
        #expect(result.stdout.contains(#""items": [\#n    "pen"\#n  ]"#))
        #expect(result.stdout.contains(#""$type": "Map""#))
        #expect(!result.stdout.contains("legacy"))
        #expect(result.stdout.contains(#""name": "Ana""#))
    }

    @Test func aSwapThatThrowsFailsTheRun() async throws {
        let first = try StateHubBinary.script("(() => { defineStore('a', { state: () => ({ n: 1 }) })() })()", named: "a.js")
        let broken = try StateHubBinary.script("throw new Error('broken build')", named: "broken.js")
        let result = try await StateHubBinary.run(["run", first.path, "--hot-swap", broken.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("hot swap of \(broken.path) failed"))
        #expect(result.stdout.contains(#""n": 1"#))
    }

    /// A swap the time limit stops is printed as a stop, and the stores are printed after it
    /// (it ended the run with a bare "Error: …" and no stores).
    @Test func aSwapThatIsStoppedIsPrintedAsAStop() async throws {
        let first = try StateHubBinary.script("(() => { defineStore('a', { state: () => ({ n: 1 }) })() })()", named: "a.js")
        let looping = try StateHubBinary.script("(() => {\n  for (;;) {}\n})()", named: "looping.js")
        let result = try await StateHubBinary.run(["run", first.path, "--hot-swap", looping.path, "--time-limit", "0.3"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("✗ hot swap of \(looping.path) was stopped: \(looping.path):2: stopped after 0.3 s"), "\(result.stderr)")
        #expect(result.stdout.contains(#""n": 1"#), "\(result.stdout)")
    }
}

/// `--hot-swap` bundles ES modules as `run` does, and a classic script that
/// redeclares a top-level `const` gets a hint instead of JavaScriptCore's bare error.
@Suite("statehub run --hot-swap: modules and redeclarations", .tags(.integration))
struct RunHotSwapModuleTests {
    @Test func anESModuleIsBundledBeforeTheSwap() async throws {
        let first = try StateHubBinary.script("""
            import { defineStore } from 'pinia'
            const useCounter = defineStore('counter', { state: () => ({ n: 1 }), actions: { inc() { this.n++ } } })
            useCounter()
            """, named: "counter.mjs")
        let second = try StateHubBinary.script("""
            import { defineStore } from 'pinia'
            export const useCounter = defineStore('counter', { state: () => ({ n: 0, added: true }), actions: { inc() { this.n += 10 } } })
            """, named: "counter2.mjs")
        let result = try await StateHubBinary.run(["run", first.path, "--hot-swap", second.path, "--dispatch", "counter.inc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("⟳ hot-swapped \(second.path): counter"), "\(result.stdout)")
        #expect(result.stdout.contains(#""added": true"#), "\(result.stdout)")
    }

    @Test func aRedeclaredConstGetsAHint() async throws {
        let first = try StateHubBinary.script("const useA = defineStore('a', { state: () => ({ n: 1 }) }); useA()", named: "a.js")
        let second = try StateHubBinary.script("const useA = defineStore('a', { state: () => ({ n: 2 }) })", named: "a2.js")
        let result = try await StateHubBinary.run(["run", first.path, "--hot-swap", second.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("hint: a swapped file runs in the page"), "\(result.stderr)")
        #expect(result.stderr.contains("IIFE"))
    }
}
