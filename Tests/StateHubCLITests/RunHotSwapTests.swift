import Foundation
import Testing

/// `statehub run --hot-swap FILE` (js engineer, issue 13): stores keep their state, the new
/// code's keys and actions arrive, the mirror matches, and setup stores that use each other work.
@Suite("statehub run --hot-swap")
struct RunHotSwapTests {
    @Test func swapsStoreCodeKeepingStateAndMirrors() throws {
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
        let result = try StateHubBinary.run(["run", first.path, "--dispatch", "cart.add", #"["pen"]"#, "--hot-swap", second.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("⟳ hot-swapped \(second.path): cart"))
        #expect(result.stdout.contains(#""items": [\#n    "pen"\#n  ]"#))
        #expect(result.stdout.contains(#""$type": "Map""#))
        #expect(!result.stdout.contains("legacy"))
        #expect(result.stdout.contains(#""name": "Ana""#))
    }

    @Test func aSwapThatThrowsFailsTheRun() throws {
        let first = try StateHubBinary.script("(() => { defineStore('a', { state: () => ({ n: 1 }) })() })()", named: "a.js")
        let broken = try StateHubBinary.script("throw new Error('broken build')", named: "broken.js")
        let result = try StateHubBinary.run(["run", first.path, "--hot-swap", broken.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("hot swap of \(broken.path) failed"))
        #expect(result.stdout.contains(#""n": 1"#))
    }
}
