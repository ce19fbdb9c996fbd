import Foundation
import Testing
@testable import Trace

@Suite("TraceRedaction: every record kind", .tags(.unit))
struct RecordRedactionTests {
    func redact(_ message: String, type: String = "apply_mutation", _ redaction: TraceRedaction = TraceRedaction()) -> String {
        redaction.redactor("nativeBridge", type, message)
    }

    @Test func namesAreMatchedInAnyCaseAtAnyDepthAndNullStays() {
        let text = #"{"a":{"Authorization":"Bearer x1","list":[{"ACCESS_TOKEN":"y"}],"refreshToken":7,"apiKey":{"k":1},"password":null}}"#
        #expect(redact(text) == #"{"a":{"Authorization":"[redacted]","list":[{"ACCESS_TOKEN":"[redacted]"}],"refreshToken":"[redacted]","apiKey":"[redacted]","password":null}}"#)
    }

    /// Absent values stay what they were: `undefined` (the tagged
    /// `{"$type":"undefined"}`) and `null` under a secret name, as a secret op's value and as a
    /// hidden argument; a value that only contains one is still hidden whole.
    @Test func undefinedAndNullUnderASecretStayWhatTheyWere() {
        let undefinedTag = #"{"$type":"undefined"}"#
        let state = #"{"type":"sync_state","payload":{"state":{"token":\#(undefinedTag),"password":null,"apiKey":{ "$type" : "undefined" },"pin":"1234"}}}"#
        #expect(redact(state, type: "sync_state") == #"{"type":"sync_state","payload":{"state":{"token":\#(undefinedTag),"password":null,"apiKey":{ "$type" : "undefined" },"pin":"[redacted]"}}}"#)
        let ops = #"{"ops":[{"op":"set","path":["token"],"value":\#(undefinedTag)},{"op":"set","path":["secret"],"value":null},{"op":"set","path":["token"],"value":{"$type":"undefined","x":1}}]}"#
        #expect(redact(ops) == #"{"ops":[{"op":"set","path":["token"],"value":\#(undefinedTag)},{"op":"set","path":["secret"],"value":null},{"op":"set","path":["token"],"value":"[redacted]"}]}"#)
        var redaction = TraceRedaction()
        redaction.arguments["s.login"] = [0, 1]
        let dispatch = #"{"type":"dispatch_action","storeId":"s","payload":{"action":"login","args":[null,\#(undefinedTag)]}}"#
        #expect(redact(dispatch, type: "dispatch_action", redaction).contains(#""args":[null,\#(undefinedTag)]"#))
        // Hiding a tagged value whole does not make its structure words secret for later records.
        let redactor = TraceRedaction().redactor
        _ = redactor("nativeBridge", "sync_state", #"{"state":{"credentials":{"$type":"Map","entries":[["k","vvvvvvv1"]]},"token":{"$type":"undefined","x":1}}}"#)
        #expect(redactor("nativeBridge", "sync_state", #"{"state":{"m":{"$type":"Map","entries":[["k","v"]]},"u":\#(undefinedTag),"w":"vvvvvvv1"}}"#)
            == #"{"state":{"m":{"$type":"Map","entries":[["k","v"]]},"u":\#(undefinedTag),"w":"[redacted]"}}"#)
    }

    @Test func opsWhosePathPassesThroughASecretHideTheirValue() {
        let set = #"{"ops":[{"op":"set","path":["token"],"value":"abcdef1"},{"op":"set","path":["user","name"],"value":"Ana"}]}"#
        #expect(redact(set) == #"{"ops":[{"op":"set","path":["token"],"value":"[redacted]"},{"op":"set","path":["user","name"],"value":"Ana"}]}"#)
        let deep = #"{"op":"splice","path":["auth","Token","history"],"index":0,"deleteCount":0,"items":["a","b"]}"#
        #expect(redact(deep) == #"{"op":"splice","path":["auth","Token","history"],"index":0,"deleteCount":0,"items":"[redacted]"}"#)
        // A set of the parent: the secret is a member of the value.
        let parent = #"{"op":"set","path":["auth"],"value":{"token":"abcdef2","who":"me"}}"#
        #expect(redact(parent) == #"{"op":"set","path":["auth"],"value":{"token":"[redacted]","who":"me"}}"#)
        // Value before path: order does not matter.
        let reordered = #"{"value":"abcdef3","op":"set","path":["secret"]}"#
        #expect(redact(reordered) == #"{"value":"[redacted]","op":"set","path":["secret"]}"#)
    }

    @Test func argumentsByPositionAndHiddenValuesEchoedLater() {
        var redaction = TraceRedaction()
        redaction.arguments["session.login"] = [1]
        let redactor = redaction.redactor
        let dispatch = #"{"v":1,"storeId":"session","messageId":"n-1","type":"dispatch_action","payload":{"action":"login","args":["Ana","hunter22"]}}"#
        #expect(redactor("nativeBridge", "dispatch_action", dispatch).contains(#""args":["Ana","[redacted]"]"#))
        // The page echoes the password in an error: the remembered value is hidden there too.
        let echo = #"{"type":"action_result","payload":{"ok":false,"error":{"message":"bad password hunter22"}}}"#
        #expect(redactor("nativeBridge", "action_result", echo) == #"{"type":"action_result","payload":{"ok":false,"error":{"message":"bad password [redacted]"}}}"#)
        // A note (plain text) and a message that is not JSON.
        #expect(redactor("nativeBridge", "error", "oversize message {\"token\": \"zzzzzz9\", ...") == "oversize message {\"token\": \"[redacted]\", ...")
        #expect(redactor("nativeBridge", "error", "hub saw hunter22") == "hub saw [redacted]")
    }

    @Test func credentialsInURLs() {
        let text = #"{"url":"https://ana:pw@x.example/p?access_token=abc&q=1#f","other":"http://plain.example/?a=1"}"#
        #expect(redact(text) == #"{"url":"https://[redacted]@x.example/p?access_token=[redacted]&q=1#f","other":"http://plain.example/?a=1"}"#)
    }

    @Test func mapEntriesWithASensitiveKeyHideTheirValue() {
        // PROTOCOL.md's tagged Map: `new Map([['apiKey', …], ['user', 'ana']])`, in a snapshot and in an op.
        let snapshot = #"{"type":"sync_state","payload":{"state":{"cfg":{"$type":"Map","entries":[["apiKey","sk-live-1"],["user","ana"],["Password",{"v":1}],["token",null]]}}}}"#
        #expect(redact(snapshot, type: "sync_state") == #"{"type":"sync_state","payload":{"state":{"cfg":{"$type":"Map","entries":[["apiKey","[redacted]"],["user","ana"],["Password","[redacted]"],["token",null]]}}}}"#)
        let op = #"{"ops":[{"op":"set","path":["cfg"],"value":{"$type":"Map","entries":[[1,"x"],["refreshToken","rt-123456"]]}}]}"#
        #expect(redact(op) == #"{"ops":[{"op":"set","path":["cfg"],"value":{"$type":"Map","entries":[[1,"x"],["refreshToken","[redacted]"]]}}]}"#)
        // A Map passed as an action argument.
        let args = #"{"type":"dispatch_action","payload":{"action":"call","args":[{"$type":"Map","entries":[["authorization","Bearer abc"]]}]}}"#
        #expect(redact(args, type: "dispatch_action") == #"{"type":"dispatch_action","payload":{"action":"call","args":[{"$type":"Map","entries":[["authorization","[redacted]"]]}]}}"#)
    }

    @Test func secretsWrittenInProseAreHidden() {
        // A page's `error` message, an exception's text in an action result, a note: free text.
        let error = #"{"type":"error","payload":{"code":"x","message":"login failed: token=tk-9f8e7d password: pw-4242 Authorization: Bearer abc.def.ghi"}}"#
        #expect(redact(error, type: "error") == #"{"type":"error","payload":{"code":"x","message":"login failed: token=[redacted] password: [redacted] Authorization: Bearer [redacted]"}}"#)
        let quoted = #"{"type":"action_result","payload":{"ok":false,"error":{"message":"apiKey = "k 1 2" rejected; bearer zz-top-secret"}}}"#
        #expect(redact(quoted, type: "action_result") == #"{"type":"action_result","payload":{"ok":false,"error":{"message":"apiKey = "[redacted]" rejected; bearer [redacted]"}}}"#)
        let redaction = TraceRedaction()
        let redactor = redaction.redactor
        #expect(redactor("nativeBridge", "error", "Uncaught Error: secret:s3cr3t-value at x.js:1") == "Uncaught Error: secret:[redacted] at x.js:1")
        // Remembered: the value echoed later without its name is hidden too.
        #expect(redactor("nativeBridge", "error", "saw s3cr3t-value again") == "saw [redacted] again")
        // JSON text inside a JSON string: the escaped member is found too.
        #expect(redact(#"{"body":"{\"token\":\"tk-inner-1\",\"n\":1}"}"#) == #"{"body":"{\"token\":\"[redacted]\",\"n\":1}"}"#)
        // Words that only look like it stay: no separator, a URL, a placeholder already there.
        #expect(redact(#"{"m":"token rejected","u":"https://token.example/","p":"password: [redacted]"}"#)
            == #"{"m":"token rejected","u":"https://token.example/","p":"password: [redacted]"}"#)
    }

    @Test func deepNestingDoesNotOverflow() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + #"{"token":"abcdef4"}"# + String(repeating: "]", count: depth)
        #expect(redact(text).contains(#"{"token":"[redacted]"}"#))
    }

    @Test func badPositionsAreRefused() {
        var redaction = TraceRedaction()
        #expect(throws: TraceRedactionError.badArgumentPosition("login:1")) { try redaction.add(keys: [], arguments: ["login:1"]) }
        #expect(throws: TraceRedactionError.badArgumentPosition("a.b:x")) { try redaction.add(keys: [], arguments: ["a.b:x"]) }
    }
}

@Suite("TraceFile: a cut last line", .tags(.unit))
struct CutLineTests {
    @Test func theCompleteLinesAreReadAndTheCutOneReported() throws {
        let records = (0..<3).map { TraceRecord(step: $0, time: UInt64($0), direction: .webToNative, channel: "nativeBridge", engine: "e", type: "sync_state", message: "{}") }
        var data = TraceFile.encode(records)
        data.append(contentsOf: Array(#"{"channel":"nativeBridge","dire"#.utf8))
        let recovered = try TraceFile.decodeRecovering(data)
        #expect(recovered.records == records)
        #expect(recovered.cutLine == 4)
        // A bad line that is not the last one is still an error.
        var bad = TraceFile.encode(records)
        bad.insert(contentsOf: Array("nonsense\n".utf8), at: 0)
        #expect(throws: TraceFileError.self) { try TraceFile.decodeRecovering(bad) }
        // A whole file is read as it is.
        #expect(try TraceFile.decodeRecovering(TraceFile.encode(records)).cutLine == nil)
    }

    /// A complete last line that is not a record is an error, not called cut for lacking a
    /// newline. Only JSON that ends before its value does is cut.
    @Test func aCompleteButInvalidLastLineIsAnErrorNotACut() throws {
        let records = (0..<2).map { TraceRecord(step: $0, time: UInt64($0), direction: .webToNative, channel: "nativeBridge", engine: "e", type: "sync_state", message: "{}") }
        let good = TraceFile.encode(records)
        let complete = [
            (#"{"channel":"c","direction":"sideways","engine":"e","message":"{}","size":1,"step":2,"time":2,"type":"t"}"#,
             #"field "direction" is invalid"#),
            (#"{"channel":"c","engine":"e","message":"{}","size":1,"step":2,"time":2,"type":"t"}"#, #"lacks field "direction""#),
            ("[1,2,3]", "is not a JSON object"),
            ("hello", "is not valid JSON"),
            (#"{"step": <script>}"#, "is not valid JSON"),
        ]
        for (line, reason) in complete {
            #expect(throws: TraceFileError.self, "\(line)") { try TraceFile.decodeRecovering(good + Data(line.utf8)) }
            do throws(TraceFileError) {
                _ = try TraceFile.decodeRecovering(good + Data(line.utf8))
            } catch {
                guard case .invalidLine(let number, let why) = error else { Issue.record("\(error)"); continue }
                #expect(number == 3 && why.hasPrefix(reason), "\(why)")
            }
        }
        for cut in [#"{"channel":"nativeBridge","dire"#, #"{"step":1"#, #"{"a":tr"#, #"{"a":"x\"#, "{", #"{"a":1."#] {
            #expect(try TraceFile.decodeRecovering(good + Data(cut.utf8)).cutLine == 3, "\(cut)")
        }
    }

    /// Token, PIN and one-time-code names (`authToken` and its kind) are hidden by default.
    @Test func tokenPinAndOneTimeCodeNamesAreHiddenByDefault() {
        let names = ["authToken", "AUTH_TOKEN", "sessionToken", "idToken", "privateKey", "clientSecret", "pin", "OTP", "x-auth-token", "csrfToken", "passcode"]
        for name in names {
            let text = #"{"a":{"\#(name)":"v-1234567"}}"#
            #expect(TraceRedaction().redactor("nativeBridge", "sync_state", text) == #"{"a":{"\#(name)":"[redacted]"}}"#, "\(name)")
        }
        // Whole names only: `spin` and `pinned` are not `pin`.
        #expect(TraceRedaction().redactor("nativeBridge", "sync_state", #"{"spin":1,"pinned":true}"#) == #"{"spin":1,"pinned":true}"#)
    }

    /// Once hidden under a secret name, a value is hidden wherever it appears later: a later
    /// dispatch's positional argument, an exception's text, a bridge payload.
    @Test func aValueHiddenOnceIsHiddenInLaterRecordsOfEveryKind() {
        let redactor = TraceRedaction().redactor
        _ = redactor("nativeBridge", "sync_state", #"{"type":"sync_state","payload":{"state":{"authToken":"at-5f4e3d2c"}}}"#)
        let dispatch = #"{"v":1,"storeId":"s","messageId":"n-2","type":"dispatch_action","payload":{"action":"use","args":["at-5f4e3d2c",1]}}"#
        #expect(redactor("nativeBridge", "dispatch_action", dispatch).contains(#""args":["[redacted]",1]"#))
        let thrown = #"{"type":"action_result","payload":{"ok":false,"error":{"message":"rejected at-5f4e3d2c","stack":"use@s.js:3"}}}"#
        #expect(!redactor("nativeBridge", "action_result", thrown).contains("at-5f4e3d2c"))
        let bridge = #"{"v":1,"id":"c1","action":"share","payload":{"text":"my key at-5f4e3d2c"}}"#
        #expect(!redactor("bridge", "request", bridge).contains("at-5f4e3d2c"))
    }

    /// Positional arguments stay in clear by default (docs/trace.md): when one's value later
    /// turns out to be a secret, the report names the `--redact-argument` that would hide it.
    @Test func anArgumentThatLaterBecomesSecretIsReported() {
        let report = RedactionReport()
        var redaction = TraceRedaction()
        redaction.arguments["s.other"] = [0]
        let redactor = redaction.redactor(reporting: report)
        _ = redactor("nativeBridge", "dispatch_action", #"{"v":1,"storeId":"s","messageId":"n-1","type":"dispatch_action","payload":{"action":"login","args":["Ana",{"pw":"hunter22"}]}}"#)
        _ = redactor("nativeBridge", "dispatch_action", #"{"v":1,"storeId":"s","messageId":"n-2","type":"dispatch_action","payload":{"action":"other","args":["configured-secret"]}}"#)
        #expect(report.argumentsWrittenInClear.isEmpty)
        _ = redactor("nativeBridge", "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["password"],"value":"hunter22"}]}]}}"#)
        _ = redactor("nativeBridge", "apply_mutation", #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["token"],"value":"configured-secret"}]}]}}"#)
        // `Ana` is not secret; argument 0 of s.other was hidden as configured.
        #expect(report.argumentsWrittenInClear == ["s.login:1"])
    }
}
