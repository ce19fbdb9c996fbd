import JSEngine
import JSSources
import Testing

/// The plugin names each action's parameters in a store's `sync_state created`
/// (docs/PROTOCOL.md A.5.1), read from the action's source by a tolerant scanner that gives
/// up on what it cannot read. Run in the real engine with our runtime.
@Suite("sync plugin: actionParameters", .tags(.engine))
struct ActionParametersTests {
    static let script = #"""
        (function () {
          var posted = [], pinia = createPinia();
          pinia.use(StateHubSync.createSyncPlugin({ post: function (text) { posted.push(JSON.parse(text)); } }));
          defineStore('opts', { state: function () { return { n: 0 }; }, actions: {
            login: function (user, password) {},
            method(user, /* the secret, "quoted" ) */ password = "a,b", { deep, pin } = {}, ...rest) {},
            async setToken(token) {},
            arrow: (a, b,) => a,
            single: token => token,
            none() {},
            templated(a = `${1}`) {},
            regex(a = /[)]/) {},
            bound: function (secret) {}.bind(null),
            native: Math.max,
          } })(pinia);
          defineStore('setup', function () {
            var n = ref(0);
            function setToken(token) { n.value++; }
            const swap = async (from, to = 1) => {};
            return { n: n, setToken: setToken, swap: swap };
          })(pinia);
          defineStore('plain', { state: function () { return {}; }, actions: { none() {} } })(pinia);
          var out = {};
          posted.forEach(function (m) {
            if (m.type === 'sync_state' && m.payload.reason === 'created') {
              out[m.storeId] = { first: Object.keys(m.payload)[0], params: m.payload.actionParameters === undefined ? 'absent' : m.payload.actionParameters };
            }
          });
          return out;
        })()
        """#

    @Test func everyReadableParameterListIsNamedAndTheRestLeftOut() async throws {
        let engine = try JavaScriptEngine(configuration: .init(name: "params"))
        for file in ["runtime/reactivity.js", "runtime/pinia.js", "plugin/sync-plugin.js"] {
            try await engine.evaluate(try #require(JSSources.files[file]), sourceURL: file)
        }
        let result = try await engine.evaluate(Self.script, sourceURL: "params.js")
        let expected: JSONValue = [
            "opts": ["first": "actionParameters", "params": [
                "login": ["user", "password"],
                "method": ["user", "password", .null, "...rest"],
                "setToken": ["token"],
                "arrow": ["a", "b"],
                "single": ["token"],
            ]],
            "setup": ["first": "actionParameters", "params": ["setToken": ["token"], "swap": ["from", "to"]]],
            "plain": ["first": "state", "params": "absent"],
        ]
        #expect(result == expected, "\(result.jsonText())")
    }
}
