import JSEngine
import Testing
@testable import StateHub

/// Getters travel beside the state (docs/PROTOCOL.md A.13): a real engine with our runtime and the
/// sync plugin, an options store and a setup store, changed by native dispatches.
@Suite("Getters beside the state", .tags(.engine))
struct GetterMirrorTests {
    static let stores = #"""
        var useCart = defineStore('cart', {
          state: function () { return { items: [] }; },
          getters: {
            count: function (state) { return state.items.reduce(function (n, item) { return n + item.qty; }, 0); },
            skus: function () { return this.items.map(function (item) { return item.sku; }); },
            first: function (state) { return state.items[0].sku; },
            format: function () { return function () { return 'a function'; }; },
            loop: function (state) { var o = { n: state.items.length }; o.self = o; return o; }
          },
          actions: { add: function (sku, qty) { this.items.push({ sku: sku, qty: qty }); } }
        });
        var useCounter = defineStore('counter', function () {
          var n = ref(1);
          var double = computed(function () { return n.value * 2; });
          function bump(by) { n.value += by; }
          return { n: n, double: double, bump: bump };
        });
        useCart(); useCounter();
        """#

    @Test func gettersOfOptionsAndSetupStoresFollowNativeDispatches() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "getters")
        try await engine.evaluate(Self.stores, sourceURL: "stores.js")

        // Created: every getter, the failing ones replaced, the state as usual.
        let undefined: JSONValue = ["$type": "undefined"]
        #expect(hub.state(of: "cart") == ["items": []])
        #expect(hub.getters(of: "cart") == ["count": 0, "skus": [], "first": undefined, "format": undefined, "loop": ["n": 0, "self": undefined]])
        #expect(hub.getters(of: "counter") == ["double": 2])
        #expect(hub.state(of: "counter") == ["n": 1])

        try await hub.dispatch(store: "cart", action: "add", args: ["A1", 2])
        // Waits for the hub's change after which the getters hold the new value (HubEndToEndTests' helper).
        #expect(await mirror(of: hub, "cart") { _ in hub.getters(of: "cart")?["count"] == 2 }, "cart.count never became 2: \(String(describing: hub.getters(of: "cart")))")
        #expect(hub.getters(of: "cart") == ["count": 2, "skus": ["A1"], "first": "A1", "format": undefined, "loop": ["n": 1, "self": undefined]])
        #expect(hub.state(of: "cart") == ["items": [["sku": "A1", "qty": 2]]])

        try await hub.dispatch(store: "counter", action: "bump", args: [4])
        #expect(await mirror(of: hub, "counter") { _ in hub.getters(of: "counter") == ["double": 10] }, "counter.double never became 10: \(String(describing: hub.getters(of: "counter")))")
        #expect(hub.state(of: "counter") == ["n": 5])

        // Each failure is a typed problem, reported once (the throw again only once it stops throwing and starts again).
        let reports = hub.problems.compactMap { problem -> String? in
            guard case .reportedByPage(let code, _, let path) = problem.kind, code == "getter_failed" else { return nil }
            return "\(problem.storeId ?? "-") \(path?.dotted ?? "-")"
        }
        #expect(reports == ["cart first", "cart format", "cart loop.self"], "\(hub.problems)")
    }

    @Test func onlyChangedGettersAreSentAndNativeCannotWriteThem() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "getters-delta")
        try await engine.evaluate(Self.stores, sourceURL: "stores.js")
        // The plugin's own messages, as the page posts them.
        try await engine.evaluate(#"""
            var sent = [];
            var post = window.webkit.messageHandlers.nativeBridge.postMessage;
            window.webkit.messageHandlers.nativeBridge.postMessage = function (text) { sent.push(JSON.parse(text)); return post.call(this, text); };
            0;
            """#, sourceURL: "spy.js")
        try await hub.dispatch(store: "cart", action: "add", args: ["A1", 2])
        try await hub.dispatch(store: "cart", action: "add", args: ["B7", 0])
        let carried = try await engine.evaluate("sent.filter(function (m) { return m.type === 'apply_mutation'; }).map(function (m) { return m.payload.getters || null; })")
        // The second add leaves count, format and loop.self as they were: only skus changes (and
        // loop.n). `first` stopped throwing with the first add.
        #expect(carried == [
            ["count": 2, "skus": ["A1"], "first": "A1", "loop": ["n": 1, "self": ["$type": "undefined"]]],
            ["skus": ["A1", "B7"], "loop": ["n": 2, "self": ["$type": "undefined"]]],
        ])
        // A native write of the state reaches the page through an action only; getters have no writer.
        #expect(hub.getters(of: "cart")?["skus"] == ["A1", "B7"])
        #expect(hub.getters(of: "nowhere") == nil)
    }

    /// Under `flush: 'sync'` each write is its own one-set message with the getters it changed, which
    /// the hub's write path reads (docs/hub.md, "The write path"): the hub ends with the page's values.
    @Test func flushSyncWritesCarryTheGettersTheyChange() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "getters-sync", flush: .sync)
        try await engine.evaluate(Self.stores, sourceURL: "stores.js")
        try await engine.evaluate("var counter = useCounter(); for (var i = 0; i < 50; i++) counter.n++; 0;", sourceURL: "writes.js")
        #expect(await mirror(of: hub, "counter") { _ in hub.getters(of: "counter") == ["double": 102] },
                "counter.double never became 102: \(String(describing: hub.getters(of: "counter")))")
        #expect(hub.state(of: "counter") == ["n": 51] && hub.version(of: "counter") == 51)
    }

    /// A hot update that removes a getter leaves native without it: the plugin follows the
    /// update with a whole `sync_state`, which replaces the getters the hub holds (A.13).
    @Test func aGetterRemovedByAHotUpdateLeavesNative() async throws {
        let hub = GlobalStateHub()
        let engine = try await makePage(hub, name: "getters-hot")
        let version = { (getters: String) in
            "(function () { defineStore('h', { state: function () { return { n: 1 }; }, getters: { \(getters) }, actions: { bump: function () { this.n++; } } })(); })();"
        }
        try await engine.evaluate(version("double: function (s) { return s.n * 2; }, triple: function (s) { return s.n * 3; }"), sourceURL: "v1.js")
        #expect(hub.getters(of: "h") == ["double": 2, "triple": 3])
        _ = try await engine.hotSwap(version("double: function (s) { return s.n * 2; }"), sourceURL: "v2.js")
        #expect(await mirror(of: hub, "h") { _ in hub.getters(of: "h") == ["double": 2] }, "triple stayed on native: \(String(describing: hub.getters(of: "h")))")
        try await hub.dispatch(store: "h", action: "bump", args: [])
        #expect(await mirror(of: hub, "h") { _ in hub.getters(of: "h") == ["double": 4] }, "double never became 4: \(String(describing: hub.getters(of: "h")))")
        #expect(hub.state(of: "h") == ["n": 2])
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }

    /// The hub's side of the bounds (A.13): a `getters` member that is not an object, or nests past
    /// the state's cap, is ignored with a problem, and the message's state still applies.
    @Test func gettersOverTheBoundsAreIgnoredWithAProblem() async throws {
        let hub = GlobalStateHub()
        let page = RecordingPage(pageID: "p")
        try await hub.attach(page)
        hub.receive(#"{"v":1,"storeId":"s","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"n":1},"getters":{"double":2},"reason":"created"}}"#, from: "p")
        #expect(hub.getters(of: "s") == ["double": 2])
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        hub.receive(#"{"v":1,"storeId":"s","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":2}]}],"getters":{"double":\#(deep)}}}"#, from: "p")
        hub.receive(#"{"v":1,"storeId":"s","messageId":"w3","seq":3,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":3}]}],"getters":[6]}}"#, from: "p")
        #expect(hub.state(of: "s") == ["n": 3])
        #expect(hub.getters(of: "s") == ["double": 2])
        #expect(hub.problems.map(\.kind) == [.tooDeep(depth: 513, limit: 512), .malformedMessage("payload.getters is not an object")], "\(hub.problems)")
        hub.receive(#"{"v":1,"storeId":"s","messageId":"w4","seq":4,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":4}]}],"getters":{"double":8}}}"#, from: "p")
        #expect(hub.getters(of: "s") == ["double": 8])
    }
}
