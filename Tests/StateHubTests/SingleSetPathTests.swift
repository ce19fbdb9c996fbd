import Synchronization
import Trace
import Testing
import StateHubTesting
@testable import StateHub

/// The flush-sync write's own path (`GlobalStateHub.receiveSingleSet`, docs/hub.md "A flush-sync
/// write") against the general one: its reader reads what the one-set matcher reads, and a hub fed
/// through it ends with the same mirrors, versions, problems, messages to pages and changes as a hub
/// fed the same texts through `receive(_:from:)`, on random and hostile messages.
@Suite("Flush-sync write path, differential", .tags(.unit))
struct SingleSetPathTests {
    /// One-set messages as `flush: 'sync'` writes them, with the envelope's and the op's variants
    /// the readers must agree on (escapes, numbers, odd acks, bad steps), and hostile edits of them.
    struct Generator {
        var random: SeededRandomNumberGenerator
        var inner: DecoderDifferentialTests.Generator

        init(seed: UInt64) {
            random = SeededRandomNumberGenerator(seed: seed)
            inner = DecoderDifferentialTests.Generator(random: SeededRandomNumberGenerator(seed: seed &+ 1))
        }

        mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

        mutating func write(store: String = "cart", seq: Int) -> String {
            let storeId = below(12) == 0 ? pick([#""c\u0061rt""#, #""\ud800""#, "7", "null", #""a-store-id-longer-than-fifteen""#]) : #""\#(store)""#
            let messageId = below(8) == 0 ? pick(["5", "1e400", "true", #""w\u0031""#, "{}"]) : #""w\#(seq)""#
            let seqText = below(15) == 0 ? pick(["0", "-1", "2.5", "1e400", #""3""#]) : String(seq)
            var text = #"{"v":1,"storeId":\#(storeId),"messageId":\#(messageId),"seq":\#(seqText)"#
            if below(4) == 0 { text += #","ack":\#(pick([#""n-1""#, "4", "null", "{}", #""n\u002d1""#]))"# }
            let type = below(10) == 0 ? pick([#""dir\u0065ct""#, #""patch function""#, "7"]) : #""direct""#
            let path: String
            switch below(10) {
            case 0: path = inner.path()
            case 1: path = #"["missing","deeper"]"#
            case 2: path = "[]"
            case 3: path = #"["items",\#(below(4))]"#
            default: path = pick([#"["n"]"#, #"["items",0,"qty"]"#, #"["name"]"#, #"["items",1]"#])
            }
            let value = below(40) == 0 ? String(repeating: "[", count: 520) + String(repeating: "]", count: 520) : inner.value()
            // The getters the write changed (docs/PROTOCOL.md A.13), now and then not an object or too deep.
            let getters: String
            switch below(12) {
            case 0, 1, 2: getters = #","getters":{"double":\#(inner.value()),"count":\#(below(9))}"#
            case 3: getters = #","getters":"# + pick(["[1]", "null", "{}", #"{"deep":\#(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))}"#])
            default: getters = ""
            }
            return text + #","type":"apply_mutation","payload":{"mutations":[{"type":\#(type),"ops":[{"op":"set","path":\#(path),"value":\#(value)}]}]\#(getters)}}"#
        }
    }

    static let initialState = #"{"n":0,"name":"a","items":[{"id":"p0","qty":1},{"id":"p1","qty":2}]}"#

    /// Wherever the write path's reader reads a message, the one-set matcher reads it too, with
    /// the same store id, sequence number, mutation type, path and value.
    @Test func theWriteReaderReadsWhatTheOneSetMatcherReads() throws {
        var generator = Generator(seed: 23_18_4)
        var taken = 0
        var path: [PathStep] = []
        for round in 0..<6_000 {
            let plain = generator.write(seq: 1 + generator.below(50))
            let text = round % 3 == 2 ? generator.inner.hostile(plain) : plain
            var utf8 = text
            let read = utf8.withUTF8 { bytes in
                StoreMessageDecoder.readSingleSet(utf8: bytes, path: &path).map { write in
                    (write, String(decoding: UnsafeBufferPointer(rebasing: bytes[write.storeId]), as: UTF8.self),
                     String(decoding: UnsafeBufferPointer(rebasing: bytes[write.mutationType]), as: UTF8.self))
                }
            }
            let matched = StoreMessageDecoder.decodeSingleSet(text)
            guard let (write, storeId, type) = read else { continue }
            taken += 1
            let message = try #require(matched, "read by the write path, not by the matcher: \(text)")
            #expect(message.storeId == storeId && message.seq == write.seq, "\(text)")
            #expect(try message.mutations?.get() == [AppliedMutation(type: type, ops: [.set(path: path, value: write.value)])], "\(text)")
            #expect(message.payload["getters"] == write.getters.map(JSONValue.object), "\(text)")
        }
        #expect(taken > 2_000, "write path read \(taken) of 6,000")
    }

    /// Plain writes take the write path; the matcher's rarer forms (escapes, a numeric message id
    /// stays allowed) are left to the general one.
    @Test func plainWritesTakeTheWritePath() {
        let body = #","type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":3}]}]}}"#
        var path: [PathStep] = []
        func reads(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { StoreMessageDecoder.readSingleSet(utf8: $0, path: &path) != nil }
        }
        #expect(reads(#"{"v":1,"storeId":"cart","messageId":"w2","seq":2"# + body))
        #expect(reads(#"{"v":1,"storeId":"cart","messageId":2,"seq":2,"ack":"n-1""# + body))
        #expect(!reads(#"{"v":1,"storeId":"c\u0061rt","messageId":"w2","seq":2"# + body))
        #expect(!reads(#"{"v":1,"storeId":"cart","messageId":true,"seq":2"# + body))
        #expect(!reads(#"{"v":1,"storeId":"cart","messageId":"w2","seq":2,"ack":null"# + body))
        #expect(path == [.key("n")] || path.isEmpty)
    }

    /// The same texts into two hubs: one through the write path where it applies (the receiver
    /// `attach` installs does exactly this), one through `receive(_:from:)` only. Same mirrors,
    /// versions, statuses, problems, messages sent to the pages, and changes streamed.
    @Test(arguments: [false, true]) func aHubOnTheWritePathEndsAsOneOnTheGeneralPath(subscribed: Bool) async throws {
        let fast = GlobalStateHub(), general = GlobalStateHub()
        let fastPage = RecordingPage(pageID: "p"), generalPage = RecordingPage(pageID: "p")
        let fastOther = RecordingPage(pageID: "q"), generalOther = RecordingPage(pageID: "q")
        try await fast.attach(fastPage)
        try await general.attach(generalPage)
        let fastChanges = subscribed ? fast.changes(of: "cart") : nil
        let generalChanges = subscribed ? general.changes(of: "cart") : nil
        let receiver = PageReceiver(pageID: "p")
        var generator = Generator(seed: subscribed ? 23_2 : 23_1)
        var taken = 0
        var seq = 1
        let created = Wire.syncState("cart", seq: 1, state: Self.initialState)
        fast.receive(created, from: "p")
        general.receive(created, from: "p")
        for round in 0..<3_000 {
            var text: String
            let waiting = general.mirrorStatus(of: "cart") == .resyncing && generator.below(3) == 0
            switch waiting ? 0 : generator.below(40) {
            case 0:
                // A whole state again (a resync's answer, mostly), which also ends a wait for one.
                seq += 1
                text = Wire.syncState("cart", seq: seq, state: Self.initialState, reason: "resync")
            case 1 where round > 1_000 && round < 1_500:
                // A second page joins the store for a while: writes are forwarded, so not the write path's.
                if try await attachOnce(fast: fast, general: general, fastOther, generalOther) { continue }
                text = Wire.syncState("cart", seq: 1, state: Self.initialState, reason: "created")
                fast.receive(text, from: "q")
                general.receive(text, from: "q")
                continue
            default:
                // Mostly in sequence; sometimes a gap or a repeat.
                seq += generator.below(25) == 0 ? generator.pick([0, 2, -1]) : 1
                text = generator.write(seq: seq)
                if generator.below(10) == 0 { text = generator.inner.hostile(text) }
            }
            var bytes = text
            let applied = bytes.withUTF8 { bytes in fast.receiveSingleSet(utf8: bytes, from: receiver) }
            if applied {
                taken += 1
            } else {
                bytes.withUTF8 { fast.receive(utf8: $0, from: "p") }
            }
            general.receive(text, from: "p")
            if round == 1_600 { _ = try await detachOnce(fast: fast, general: general) }
        }
        expectSameHub(fast, general)
        #expect(fastPage.messages == generalPage.messages)
        #expect(fastOther.messages == generalOther.messages)
        #expect(taken > 300, "write path taken for \(taken) of 3,000") // 386 and 434 with these seeds: the rest are gaps, waits for a resync, hostile texts, the second page's turn
        if let fastChanges, let generalChanges {
            fast.detach(pageID: "p")
            general.detach(pageID: "p")
            fast.detach(pageID: "q")
            general.detach(pageID: "q")
            #expect(await Self.drain(fastChanges) == (await Self.drain(generalChanges)))
        }
    }

    /// Attaches page `q` to both hubs the first time; true when it did.
    private func attachOnce(fast: GlobalStateHub, general: GlobalStateHub, _ fastOther: RecordingPage, _ generalOther: RecordingPage) async throws -> Bool {
        guard !fast.pageIDs.contains("q") else { return false }
        try await fast.attach(fastOther)
        try await general.attach(generalOther)
        return true
    }

    private func detachOnce(fast: GlobalStateHub, general: GlobalStateHub) async throws -> Bool {
        guard fast.pageIDs.contains("q") else { return false }
        fast.detach(pageID: "q")
        general.detach(pageID: "q")
        return true
    }

    /// The write path leaves the hub untouched where it does not apply: a gap, a trace, another shape.
    @Test func theWritePathDeclinesWithoutTouchingTheHub() async throws {
        let hub = GlobalStateHub()
        try await hub.attach(RecordingPage(pageID: "p"))
        hub.receive(Wire.syncState("cart", seq: 1, state: Self.initialState), from: "p")
        let receiver = PageReceiver(pageID: "p")
        func write(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { hub.receiveSingleSet(utf8: $0, from: receiver) }
        }
        #expect(write(Wire.mutation("cart", seq: 2, ops: #"{"op":"set","path":["n"],"value":5}"#)))
        #expect(hub.state(of: "cart")?["n"] == 5 && hub.version(of: "cart") == 2)
        #expect(!write(Wire.mutation("cart", seq: 4, ops: #"{"op":"set","path":["n"],"value":6}"#)))     // a gap
        #expect(!write(Wire.mutation("cart", seq: 3, ops: #"{"op":"set","path":["x","y"],"value":6}"#))) // fails to apply
        #expect(!write(Wire.mutation("other", seq: 3, ops: #"{"op":"set","path":["n"],"value":6}"#)))    // unknown store
        #expect(!write(Wire.mutation("cart", seq: 3, ops: #"{"op":"delete","path":["n"]}"#)))             // not a set
        #expect(hub.state(of: "cart")?["n"] == 5 && hub.version(of: "cart") == 2 && hub.problems.isEmpty)
        #expect(write(Wire.mutation("cart", seq: 3, ops: #"{"op":"set","path":["n"],"value":6}"#)))
        #expect(hub.state(of: "cart")?["n"] == 6 && hub.version(of: "cart") == 3 && hub.problems.isEmpty)
        // A write that changed getters (docs/PROTOCOL.md A.13): they are merged in the same step.
        let body = #","type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["n"],"value":7}]}]"#
        #expect(write(#"{"v":1,"storeId":"cart","messageId":"w4","seq":4"# + body + #","getters":{"double":14}}}"#))
        #expect(write(#"{"v":1,"storeId":"cart","messageId":"w5","seq":5"# + body + #","getters":{"label":"seven"}}}"#))
        #expect(hub.getters(of: "cart") == ["double": 14, "label": "seven"] && hub.version(of: "cart") == 5)
        #expect(!write(#"{"v":1,"storeId":"cart","messageId":"w6","seq":6"# + body + #","getters":[14]}}"#)) // no object: the general path's problem
        #expect(hub.version(of: "cart") == 5 && hub.problems.isEmpty)

        let traced = GlobalStateHub(configuration: .init(trace: TraceRecorder()))
        try await traced.attach(RecordingPage(pageID: "p"))
        traced.receive(Wire.syncState("cart", seq: 1, state: Self.initialState), from: "p")
        var text = Wire.mutation("cart", seq: 2, ops: #"{"op":"set","path":["n"],"value":5}"#)
        #expect(!text.withUTF8 { traced.receiveSingleSet(utf8: $0, from: PageReceiver(pageID: "p")) })
    }

    /// Texts one edit away from the write path's shape, each in turn into a hub
    /// through the write path and one through `receive(_:from:)`: same mirrors, versions, problems, messages.
    @Test func nearlyTheFastShapeEndsAsTheGeneralPath() async throws {
        let head = #"{"v":1,"storeId":"cart","messageId":"w"#
        func text(seq: Int, ack: String? = nil, path: String = #"["n"]"#, value: String = "1", type: String = #""direct""#, getters: String? = nil) -> String {
            let ackField = ack.map { #","ack":\#($0)"# } ?? ""
            let gettersField = getters.map { #","getters":\#($0)"# } ?? ""
            return head + #"\#(seq)","seq":\#(seq)\#(ackField),"type":"apply_mutation","payload":{"mutations":[{"type":\#(type),"ops":[{"op":"set","path":\#(path),"value":\#(value)}]}]\#(gettersField)}}"#
        }
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        // A getter's value sits one level below the getters object: 512 nested arrays pass the cap of 512 (A.13).
        let deeper = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        let variants: [(Int) -> String] = [
            { text(seq: $0, value: "1e400") }, { text(seq: $0, value: "-0") }, { text(seq: $0, value: "1E2") },
            { text(seq: $0, value: "-1e-400") }, { text(seq: $0, value: #"{"a":1,"a":2}"#) },
            { text(seq: $0, value: #"{"\u0061":1,"a":2}"#) }, { text(seq: $0, path: #"["\u006e"]"#) },
            { text(seq: $0, path: #"["items",1,"qty"]"#, value: "7") }, { text(seq: $0, path: #"["items",2]"#, value: "{}") },
            { text(seq: $0, path: #"["items",1e0]"#, value: "3") }, { text(seq: $0, path: #"["items",-0]"#, value: "3") },
            { text(seq: $0, path: #"["items",1.5]"#, value: "3") }, { text(seq: $0, path: #"["items","1"]"#, value: "3") },
            { text(seq: $0, path: #"["$type"]"#, value: #""Date""#) }, { text(seq: $0, path: #"["x","$type"]"#, value: "1") },
            { text(seq: $0, value: #"{"$type":"Map","entries":[]}"#) }, { text(seq: $0, value: deep) },
            { text(seq: $0, path: "[" + Array(repeating: #""d""#, count: 70).joined(separator: ",") + "]") },
            { text(seq: $0, ack: #""n-1""#) }, { text(seq: $0, ack: "null") }, { text(seq: $0, ack: "1e400") },
            { text(seq: $0, type: #""dir\u0065ct""#) }, { text(seq: $0, value: #""\ud800""#) }, { text(seq: $0, path: #"["\udc00"]"#) },
            { text(seq: $0 + 1) }, { text(seq: $0 - 1) }, { text(seq: $0, path: "[]", value: #"{"n":5}"#) },
            { text(seq: $0, path: "[]", value: "5") }, { text(seq: $0) + " " }, { text(seq: $0).replacingOccurrences(of: #""v":1"#, with: #""v":1.0"#) },
            { text(seq: $0, getters: #"{"double":2}"#) }, { text(seq: $0, getters: "[2]") }, { text(seq: $0, getters: "null") },
            { text(seq: $0, getters: #"{"deep":\#(deep)}"#) }, { text(seq: $0, getters: #"{"deep":\#(deeper)}"#) },
            { text(seq: $0, getters: #"{"a":1,"a":2}"#) }, { text(seq: $0, getters: #"{"x":"\ud800"}"#) },
            { text(seq: $0, value: deep, getters: #"{"double":2}"#) }, { text(seq: $0 + 1, getters: #"{"double":2}"#) },
        ]
        let fast = GlobalStateHub(), general = GlobalStateHub()
        let fastPage = RecordingPage(pageID: "p"), generalPage = RecordingPage(pageID: "p")
        try await fast.attach(fastPage)
        try await general.attach(generalPage)
        let receiver = PageReceiver(pageID: "p")
        var seq = 1
        for (index, variant) in variants.enumerated() {
            // A fresh whole state first, so each variant meets an expected seq and a known tree.
            seq += 1
            let resync = Wire.syncState("cart", seq: seq, state: Self.initialState, reason: "resync")
            fast.receive(resync, from: "p")
            general.receive(resync, from: "p")
            seq += 1
            var bytes = variant(seq)
            let original = bytes
            let applied = bytes.withUTF8 { fast.receiveSingleSet(utf8: $0, from: receiver) }
            if !applied { bytes.withUTF8 { fast.receive(utf8: $0, from: "p") } }
            general.receive(original, from: "p")
            #expect(fast.state(of: "cart") == general.state(of: "cart"), "variant \(index): \(original)")
            #expect(fast.version(of: "cart") == general.version(of: "cart"), "variant \(index): \(original)")
            #expect(fast.problems == general.problems, "variant \(index): \(original)")
            #expect(fastPage.messages == generalPage.messages, "variant \(index): \(original)")
            #expect(fast.getters(of: "cart") == general.getters(of: "cart"), "variant \(index): \(original)")
        }
    }

    private func expectSameHub(_ a: GlobalStateHub, _ b: GlobalStateHub, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.storeIDs == b.storeIDs, sourceLocation: sourceLocation)
        for id in a.storeIDs {
            #expect(a.state(of: id) == b.state(of: id), "mirror of \(id)", sourceLocation: sourceLocation)
            #expect(a.version(of: id) == b.version(of: id), "version of \(id)", sourceLocation: sourceLocation)
            #expect(a.mirrorStatus(of: id) == b.mirrorStatus(of: id), "status of \(id)", sourceLocation: sourceLocation)
            #expect(a.getters(of: id) == b.getters(of: id), "getters of \(id)", sourceLocation: sourceLocation)
        }
        #expect(a.problems == b.problems, sourceLocation: sourceLocation)
    }

    /// The buffered changes (the newest `changeBufferLimit`), up to the store's removal, which the
    /// test makes last: the stream itself does not end.
    private static func drain(_ stream: AsyncStream<StoreChange>) async -> [StoreChange] {
        var changes: [StoreChange] = []
        for await change in stream {
            changes.append(change)
            if change.kind == .removed { break }
        }
        return changes
    }
}
