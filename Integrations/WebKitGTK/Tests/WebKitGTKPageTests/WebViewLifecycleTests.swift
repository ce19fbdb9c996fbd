import Foundation
import JSEngine
import StateHub
import Testing
import WebKitGTKPage

/// Reloads and crashed web processes (docs/webview.md, "What page went away means").
extension WebKitGTKPageTests {
@Suite("Web view reloads and crashes")
struct LifecycleTests {
    @Test func aReloadReannouncesItsStores() async throws {
        let hub = GlobalStateHub()
        let page = try await WebViewFixtures.loadedPage(hub, .init(name: "reloading", bundles: [try WebViewFixtures.example("cart")]))
        #expect(await mirror(of: hub, "cart") { $0 == ["items": []] })
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5]])
        #expect(hub.state(of: "cart") == ["items": [["id": "p1", "name": "Pen", "price": 1.5, "qty": 1]]])
        let before = hub.version(of: "cart") ?? 0

        try await page.reload()
        // A new context: the store announced itself again with its initial state.
        #expect(await mirror(of: hub, "cart") { $0 == ["items": []] })
        #expect((hub.version(of: "cart") ?? 0) > before)
        #expect(hub.hosts(of: "cart") == ["reloading"])
        // And the hub talks to the new context.
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p2", "name": "Ink", "price": 3]])
        #expect(hub.state(of: "cart") == ["items": [["id": "p2", "name": "Ink", "price": 3, "qty": 1]]])
        #expect(try await page.evaluate("getActivePinia().state.value.cart.items.length") == 1)
        await page.close()
    }

    /// A store whose action never settles: a dispatch to it is still pending when the process dies.
    static let stuck = WebViewPage.Bundle(path: "stuck.js", source: """
        defineStore('stuck', { state: () => ({ n: 0 }), actions: { wait() { return new Promise(() => {}); } } })();
        """)

    @Test func aKilledWebProcessIsAPageGoneAndANewPageHydratesFromTheMirror() async throws {
        let hub = GlobalStateHub()
        let cart = try WebViewFixtures.example("cart")
        let before = WebProcesses.running()
        let first = try await WebViewFixtures.loadedPage(hub, .init(name: "first", bundles: [cart, Self.stuck]))
        let firstProcesses = WebProcesses.running().subtracting(before)
        try #require(firstProcesses.count == 1, "the first page's web process among \(WebProcesses.running())")
        #expect(await mirror(of: hub, "stuck") { $0 != nil })
        try await hub.dispatch(store: "cart", action: "add", args: [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]])

        // A second page hosting the cart: hydrated from the first's state.
        let second = try await WebViewFixtures.loadedPage(hub, .init(name: "second", bundles: [cart]))
        #expect(await eventually { try await second.evaluate("getActivePinia().state.value.cart.items.length") == 1 })

        let pending = Task { try await hub.dispatch(store: "stuck", action: "wait") }
        kill(try #require(firstProcesses.first), SIGKILL)
        await #expect(throws: StateHubError.engineGone(store: "stuck", pageID: "first")) { try await pending.value }
        // The dispatch may fail first (WebKit fails the call in flight), before the view's
        // `web-process-terminated` reaches gtk:main: wait for that.
        #expect(await eventually { first.closeReason != nil })
        #expect(first.closeReason == .webProcessCrashed)
        #expect(hub.pageIDs == ["second"])
        #expect(hub.state(of: "stuck") == nil)
        #expect(hub.hosts(of: "cart") == ["second"])
        #expect(hub.state(of: "cart") == ["items": [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]]])
        await #expect(throws: WebViewError.pageGone(pageID: "first", reason: .webProcessCrashed)) { try await first.evaluate("1") }

        // A new page: its cart starts empty and is hydrated from the mirror.
        let third = try await WebViewFixtures.loadedPage(hub, .init(name: "third", bundles: [cart]))
        #expect(await eventually { try await third.evaluate("getActivePinia().state.value.cart.items") == [["id": "p1", "name": "Pen", "price": 1.5, "qty": 2]] })
        try await hub.dispatch(store: "cart", action: "remove", args: ["p1"])
        #expect(await eventually { try await third.evaluate("getActivePinia().state.value.cart.items.length") == 0 })
        await second.close()
        await third.close()
    }
}
}

/// The WebKit web processes that descend from this process (`/proc`), by pid. Under WebKit's
/// bubblewrap sandbox they are grandchildren, so the whole tree is walked.
enum WebProcesses {
    static func running() -> Set<pid_t> {
        var parent: [pid_t: pid_t] = [:]
        var name: [pid_t: String] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { continue }
            name[pid] = String(stat[stat.index(after: open)..<close])
            let rest = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if rest.count > 1, let ppid = pid_t(rest[1]) { parent[pid] = ppid }
        }
        let me = getpid()
        func descends(_ pid: pid_t) -> Bool {
            var current = pid
            for _ in 0..<64 {
                guard let up = parent[current] else { return false }
                if up == me { return true }
                current = up
            }
            return false
        }
        return Set(name.filter { $0.value.hasPrefix("WebKitWebProces") && descends($0.key) }.keys)
    }
}

/// Polls `condition` until it holds or 20 s pass (a page's state crosses a process).
func eventually(_ condition: @Sendable () async throws -> Bool) async -> Bool {
    for _ in 0..<400 {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return (try? await condition()) == true
}
