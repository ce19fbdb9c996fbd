import Testing
@testable import Trace

/// Secrets that reached traces past the redactor: an op under a secret key inside a message
/// that is not JSON (a refused one: cut, trailing bytes), and legacy bridge URLs whose
/// parameters are percent-encoded (the name, or a JSON `params` holding a secret).
@Suite(.tags(.unit)) struct RedactionLeakTests {
    func redact(_ message: String, channel: String = "nativeBridge", type: String = "apply_mutation") -> String {
        TraceRedaction().redactor(channel, type, message)
    }

    @Test func anOpUnderASecretKeyInARefusedMessageIsHidden() {
        let trailing = #"{"type":"apply_mutation","payload":{"mutations":[{"ops":[{"op":"set","path":["user","token"],"value":"s3cretvalue1"}]}]}} junk"#
        let redacted = redact(trailing)
        #expect(!redacted.contains("s3cretvalue1"), "\(redacted)")
        #expect(redacted.contains(#""path":["user","token"]"#))
        // Value before path, and a container value.
        let reordered = #"{"ops":[{"value":{"a":"s3cretvalue2"},"op":"set","path":["password"]},{"op":"set","path":["name"],"value":"Ana"}]} x"#
        let hidden = redact(reordered)
        #expect(!hidden.contains("s3cretvalue2") && hidden.contains(#""value":"Ana""#), "\(hidden)")
        // A message cut inside the value: hidden to the end.
        let cut = #"{"ops":[{"op":"splice","path":["secret"],"index":0,"deleteCount":0,"items":["s3cretvalue3","#
        #expect(!redact(cut).contains("s3cretvalue3"))
    }

    @Test func percentEncodedLegacyURLParametersAreHidden() {
        let encodedName = #"{"url":"jsbridge://login?acc%65ss_token=abcdef123456&callback=cb"}"#
        let first = redact(encodedName, channel: "bridge", type: "legacy_invoke")
        #expect(!first.contains("abcdef123456") && first.contains("callback=cb"), "\(first)")
        let encodedParams = #"{"url":"jsbridge://login?params=%7B%22password%22%3A%22hunter2hunter2%22%7D&callback=cb"}"#
        let second = redact(encodedParams, channel: "bridge", type: "legacy_invoke")
        #expect(!second.contains("hunter2hunter2") && second.contains("callback=cb"), "\(second)")
        // Parameters that hold nothing secret stay readable.
        let plain = #"{"url":"jsbridge://showAlert?params=%7B%22message%22%3A%22Hi%22%7D&callback=cb"}"#
        #expect(redact(plain, channel: "bridge", type: "legacy_invoke") == plain)
    }
}
