import Testing
@testable import Trace

/// A page's `actionParameters` (docs/PROTOCOL.md A.5.1) make the redactor
/// hide, with no configuration, the arguments whose parameter has a sensitive name.
@Suite("TraceRedaction: parameters named by the page", .tags(.unit))
struct ActionParameterRedactionTests {
    static let created = #"{"v":1,"storeId":"session","messageId":"w1","seq":1,"type":"sync_state","payload":{"actionParameters":{"login":["user","password"],"rename":["name"],"sign":[null,"...credentials"],"Save":["Token"]},"state":{"user":null},"reason":"created"}}"#

    func dispatch(_ action: String, _ args: String, store: String = "session") -> String {
        #"{"v":1,"storeId":"\#(store)","messageId":"n-1","type":"dispatch_action","payload":{"action":"\#(action)","args":\#(args)}}"#
    }

    @Test func aSensitiveParameterNameHidesItsPositionAndNothingElse() {
        let redactor = TraceRedaction().redactor
        // Before the page named them, nothing is known.
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("login", #"["Ana","hunter22"]"#)).contains(#""args":["Ana","hunter22"]"#))
        #expect(redactor("nativeBridge", "sync_state", Self.created) == Self.created)
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("login", #"["Ana","hunter33"]"#)).contains(#""args":["Ana","[redacted]"]"#))
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("rename", #"["Bo"]"#)).contains(#""args":["Bo"]"#))
        // A rest parameter with a sensitive name hides its position and every later one.
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("sign", #"[1,"a1","b2",{"x":3}]"#)).contains(#""args":[1,"[redacted]","[redacted]","[redacted]"]"#))
        // Names in any case; other stores and actions are not touched.
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("Save", #"["t0ken-1"]"#)).contains(#""args":["[redacted]"]"#))
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("login", #"["Ana","pw"]"#, store: "other")).contains(#""args":["Ana","pw"]"#))
        // The hidden value is remembered like any other: its echo is hidden too.
        #expect(redactor("nativeBridge", "action_result", #"{"message":"bad password hunter33"}"#) == #"{"message":"bad password [redacted]"}"#)
    }

    @Test func aMarkerInsideTheStateIsNotReadAsParameters() {
        let redactor = TraceRedaction().redactor
        let sneaky = #"{"v":1,"storeId":"s","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"payload":{"actionParameters":{"login":["password"]}}},"reason":"created"}}"#
        _ = redactor("nativeBridge", "sync_state", sneaky)
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("login", #"["visible"]"#, store: "s")).contains(#""args":["visible"]"#))
    }

    @Test func configuredKeysCountAsSensitiveParameterNames() throws {
        var redaction = TraceRedaction()
        try redaction.add(keys: ["name"], arguments: [])
        let redactor = redaction.redactor
        _ = redactor("nativeBridge", "sync_state", Self.created)
        #expect(redactor("nativeBridge", "dispatch_action", dispatch("rename", #"["Bo"]"#)).contains(#""args":["[redacted]"]"#))
    }
}
