import Foundation
import Testing
import Trace

@Suite("TraceRedactor.jsonKeys", .tags(.unit))
struct RedactionTests {
    let redact = TraceRedactor.jsonKeys(["token", "accessToken"])

    private func apply(_ message: String) -> String { redact("bridge", "reply", message) }

    @Test func topLevelKey() {
        #expect(apply(#"{"token":"abc","user":"u-42"}"#) == #"{"token":"[redacted]","user":"u-42"}"#)
    }

    @Test func nestedKeysAtAnyDepthAndInsideArrays() {
        let message = #"{"id":"c1","ok":true,"data":{"apiBaseURL":"https://api.example.com","session":{"accessToken":"xyz","list":[{"token":"t1"},{"token":"t2","n":1}]},"token":"abc"}}"#
        #expect(apply(message) == #"{"id":"c1","ok":true,"data":{"apiBaseURL":"https://api.example.com","session":{"accessToken":"[redacted]","list":[{"token":"[redacted]"},{"token":"[redacted]","n":1}]},"token":"[redacted]"}}"#)
    }

    @Test func nonStringValuesAreReplacedWhole() {
        #expect(apply(#"{"token":{"a":[1,{"token":2}],"b":"x"},"z":0}"#) == #"{"token":"[redacted]","z":0}"#)
        #expect(apply(#"{"token":[1,2,3]}"#) == #"{"token":"[redacted]"}"#)
        #expect(apply(#"{"token":12.5e3,"accessToken":null,"x":true}"#) == #"{"token":"[redacted]","accessToken":"[redacted]","x":true}"#)
    }

    @Test func whitespaceKeyOrderAndOtherTextAreKept() {
        let message = "{ \"b\" : 1 ,\n  \"token\" :\t\"secret\" , \"a\":[ ] }"
        #expect(apply(message) == "{ \"b\" : 1 ,\n  \"token\" :\t\"[redacted]\" , \"a\":[ ] }")
    }

    @Test func escapedKeysMatchAndValuesMentioningTheKeyDoNot() {
        #expect(apply(#"{"tok\u0065n":"s"}"#) == #"{"tok\u0065n":"[redacted]"}"#)
        #expect(apply(#"{"note":"token","tokens":"x","Token":"y"}"#) == #"{"note":"token","tokens":"x","Token":"y"}"#)
    }

    @Test func stringsWithEscapedQuotesDoNotConfuseTheScanner() {
        let message = #"{"msg":"a \"token\": \"x\" \\","token":"s","t":"\ud83d\ude80"}"#
        #expect(apply(message) == #"{"msg":"a \"token\": \"x\" \\","token":"[redacted]","t":"\ud83d\ude80"}"#)
    }

    @Test func nonJSONMessagesAreStoredUnchanged() {
        for message in [
            "not json", #"{"token":"abc""#, #"{"token":"abc"} trailing"#, #"{"token":abc}"#,
            #"{"token":"a","#, #"{"token":01}"#, "{\"token\":\"tab\tinside\"}", "", #"{"token" "x"}"#,
            #"[{"token":"x"}"#, #"{"token":"x"]"#,
        ] {
            #expect(apply(message) == message, "\(message)")
        }
    }

    @Test func validJSONWithoutTheKeysIsReturnedUnchanged() {
        let message = #"[1,-2.5e-3,"x",true,false,null,{"a":{"b":[]}}]"#
        #expect(apply(message) == message)
    }

    @Test func outputStaysValidJSON() throws {
        let message = #"{"data":{"token":{"deep":[1,2]},"userId":"u"}}"#
        let output = apply(message)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let data = try #require(object["data"] as? [String: Any])
        #expect(data["token"] as? String == "[redacted]")
        #expect(data["userId"] as? String == "u")
    }

    @Test func deepNestingDoesNotOverflow() {
        let depth = 100_000
        let message = String(repeating: "[", count: depth) + #"{"token":1}"# + String(repeating: "]", count: depth)
        let expected = String(repeating: "[", count: depth) + #"{"token":"[redacted]"}"# + String(repeating: "]", count: depth)
        #expect(apply(message) == expected)
    }

    @Test func chainAppliesInOrder() {
        let upper: Redactor = { _, _, message in message.uppercased() }
        let chained = TraceRedactor.chain([TraceRedactor.jsonKeys(["token"]), upper])
        #expect(chained("bridge", "reply", #"{"token":"abc"}"#) == #"{"TOKEN":"[REDACTED]"}"#)
    }
}
