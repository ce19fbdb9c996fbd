import Testing
@testable import StateHub

/// The check every received message passes (`GlobalStateHub.headMentionsChunk`): `"type":"chunk"`
/// in the first 400 bytes, compared as UTF-8 bytes (not with Foundation's `String.contains`).
@Suite(.tags(.unit)) struct ChunkDetectionTests {
    @Test func findsTheMarkerInThePluginsEnvelope() {
        #expect(GlobalStateHub.headMentionsChunk(#"{"v":1,"storeId":"s","messageId":"t.0","type":"chunk","payload":{}}"#))
        #expect(!GlobalStateHub.headMentionsChunk(#"{"v":1,"storeId":"s","messageId":"w2","seq":2,"type":"apply_mutation","payload":{}}"#))
        #expect(!GlobalStateHub.headMentionsChunk(#"{"type":"chun"#))
        #expect(!GlobalStateHub.headMentionsChunk(""))
    }

    @Test func looksAtTheFirst400BytesOnly() {
        let padding = String(repeating: "x", count: 400)
        #expect(!GlobalStateHub.headMentionsChunk(#"{"pad":""# + padding + #"","type":"chunk"}"#))
        // The marker ending exactly at byte 400 is inside the head.
        let marker = #""type":"chunk""#
        let head = String(repeating: " ", count: 400 - marker.utf8.count) + marker
        #expect(GlobalStateHub.headMentionsChunk(head + "}"))
        #expect(!GlobalStateHub.headMentionsChunk(" " + head + "}"))
    }

    /// A head cut inside a multi-byte character was no `String`, so such a chunk went unseen.
    @Test func aMultiByteCharacterAcrossByte400DoesNotHideTheMarker() {
        let storeId = String(repeating: "é", count: 190)   // 380 bytes before the marker's end region
        let text = #"{"type":"chunk","storeId":""# + storeId + #""}"#
        #expect(text.utf8.count > 400)
        #expect(GlobalStateHub.headMentionsChunk(text))
        let odd = #"{"type":"chunk","s":"x"# + storeId + #""}"#   // byte 400 falls inside an "é"
        #expect(GlobalStateHub.headMentionsChunk(odd))
    }
}
