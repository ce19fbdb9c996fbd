import Testing
import StateHubTesting
@testable import StateHub

/// The one-pass decoder (`StoreMessageDecoder`) against the generic parser on random messages in
/// the plugin's shape and on hostile variants of them (cut, bytes replaced, keys repeated): the
/// same message or the same error, every time. The decoder reads scalars and paths from tokens;
/// this is what keeps it honest.
@Suite("Store message decoder, differential", .tags(.unit))
struct DecoderDifferentialTests {
    struct Generator {
        var random: SeededRandomNumberGenerator

        mutating func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

        mutating func number() -> String {
            pick(["0", "-0", "1", "7", "42", "-3", "0.5", "4499.5", "1e3", "2.5E-3", "1e400", "-1e400", "123456789012345678",
                  "9007199254740993", "0.1", "1.0", "3.000", String(below(1_000_000)), "\(below(1000)).\(below(1000))"])
        }

        mutating func string() -> String {
            pick([#""n""#, #""items""#, #""qty""#, #""a b""#, #""\u0061""#, #""\n\t""#, #""é""#, #""\ud83d\ude00""#,
                  #""\ud800""#, #""\udc00x""#, #""""#, #""0""#, #""length""#, #""a\"b""#])
        }

        mutating func value(depth: Int = 0) -> String {
            switch depth > 3 ? below(5) : below(8) {
            case 0: return number()
            case 1: return string()
            case 2: return pick(["true", "false", "null"])
            case 3, 4: return number()
            case 5: return "[" + (0..<below(4)).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
            default:
                return "{" + (0..<below(4)).map { _ in "\(string()):\(value(depth: depth + 1))" }.joined(separator: ",") + "}"
            }
        }

        mutating func step() -> String {
            below(10) == 0 ? pick(["-1", "1.5", "true", "null", "[0]", "{}", "1e400", "2e0"]) : (below(2) == 0 ? string() : String(below(5)))
        }

        mutating func path() -> String { "[" + (0..<below(4)).map { _ in step() }.joined(separator: ",") + "]" }

        mutating func operation() -> String {
            switch below(7) {
            case 0: return #"{"op":"delete","path":\#(path())}"#
            case 1: return #"{"op":"splice","path":\#(path()),"index":\#(number()),"deleteCount":\#(number()),"items":[\#(value())]}"#
            case 2: return #"{"path":\#(path()),"value":\#(value()),"op":"set"}"#
            case 3: return #"{"op":"\#(pick(["set", "teleport", "splice"]))","path":\#(path())}"#
            default: return #"{"op":"set","path":\#(path()),"value":\#(value())}"#
            }
        }

        mutating func mutation() -> String {
            var members = [#""type":"\#(pick(["direct", "patch object", "patch function"]))""#]
            if below(3) == 0 { members.append(#""dispatch":\#(pick([#""n-3""#, "7", "null", #""w\u0031""#]))"#) }
            if below(4) == 0 { members.append(#""action":"add","call":\#(below(9)),"root":1"#) }
            members.append(#""ops":[\#((0..<below(4)).map { _ in operation() }.joined(separator: ","))]"#)
            if below(5) == 0 { members.shuffle(using: &random) }
            return "{" + members.joined(separator: ",") + "}"
        }

        mutating func message() -> String {
            let storeId = below(8) == 0 ? pick([#""c\u0061rt""#, #""\ud800""#, "7", "null"]) : #""cart""#
            let messageId = below(4) == 0 ? String(below(100)) : #""w\#(below(100))""#
            var text = #"{"v":\#(below(10) == 0 ? pick(["2", "1.0", #""1""#]) : "1"),"storeId":\#(storeId),"messageId":\#(messageId),"seq":\#(below(10) == 0 ? number() : String(1 + below(99)))"#
            if below(2) == 0 { text += #","ack":\#(pick([#""n-4""#, "4", "null"]))"# }
            switch below(6) {
            case 0:
                text += #","type":"sync_state","payload":{"state":\#(value()),"reason":"created"}}"#
            case 1:
                text += #","type":"action_result","payload":{"ok":true,"value":\#(value())}}"#
            default:
                // Sometimes the getters a write changed (docs/PROTOCOL.md A.13), an object or not.
                let getters = below(4) == 0 ? #","getters":"# + (below(3) == 0 ? value() : #"{"double":\#(value())}"#) : ""
                text += #","type":"apply_mutation","payload":{"mutations":[\#((0..<below(3)).map { _ in mutation() }.joined(separator: ","))]\#(getters)}}"#
            }
            return text
        }

        /// A message made hostile: cut short, a byte replaced, a key repeated, or as it was.
        mutating func hostile(_ text: String) -> String {
            var bytes = Array(text.utf8)
            switch below(5) {
            case 0: bytes = Array(bytes.prefix(below(bytes.count + 1)))
            case 1, 2:
                for _ in 0..<(1 + below(3)) where !bytes.isEmpty {
                    bytes[below(bytes.count)] = pick(Array(#"{}[],:"\ 0123456789aeE.+-tnu"#.utf8))
                }
            case 3:
                if let range = text.range(of: #","seq":"#) { return text.replacingCharacters(in: range, with: #","seq":1,"seq":"#) }
            default: break
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test func theDecoderAgreesWithTheGenericParser() throws {
        var generator = Generator(random: SeededRandomNumberGenerator(seed: 18_4_2026))
        var fastTaken = 0
        var singleSets = 0, hostileSingleSets = 0
        for round in 0..<6_000 {
            let valid = generator.message()
            let text = round % 2 == 0 ? valid : generator.hostile(valid)
            if round % 2 == 0, StoreMessageDecoder.decode(text) != nil { fastTaken += 1 }
            if StoreMessageDecoder.decodeSingleSet(text) != nil {
                if round % 2 == 0 { singleSets += 1 } else { hostileSingleSets += 1 }
            }
            expectSameOutcome(text)
        }
        // Not vacuous: many of the unaltered messages take the fast path (the others hold
        // something it hands over: a bad step, an unknown op, a version of "1").
        #expect(fastTaken > 600, "fast path taken for \(fastTaken) of 3,000 messages")
        // The one-set matcher too (about 1 in 70 generated messages has its shape), hostile ones included:
        // 24 + 5 with this seed.
        #expect(singleSets > 15 && hostileSingleSets > 3, "one-set path taken for \(singleSets) + \(hostileSingleSets) messages")
    }

    @Test func thePluginsOwnMessagesTakeTheFastPath() throws {
        let texts = [
            #"{"v":1,"storeId":"cart","messageId":"w2","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["items",0,"qty"],"value":3.25}]}]}}"#,
            #"{"v":1,"storeId":"cart","messageId":"w3","seq":3,"ack":"n-1","type":"apply_mutation","payload":{"mutations":[{"type":"direct","dispatch":"n-1","ops":[{"op":"splice","path":["items"],"index":0,"deleteCount":1,"items":[]}]}]}}"#,
            #"{"v":1,"storeId":"big","messageId":"w1","seq":1,"type":"sync_state","payload":{"state":{"rows":[{"id":1,"v":0.5},{"id":2,"v":1.5}]},"reason":"created"}}"#,
        ]
        for text in texts {
            let decoded = try #require(StoreMessageDecoder.decode(text))
            #expect(try decoded.mutations?.get() == StoreMessage(parsing: text).mutations?.get())
        }
        // The payload's depth comes with it: payload, state, rows, a row (no walk of the state).
        #expect(StoreMessageDecoder.decode(texts[2])?.payloadDepth == 4)
        #expect(StoreMessageDecoder.decode(texts[0])?.payloadDepth == nil)
    }

    /// What `flush: 'sync'` posts for one write takes the one-set matcher; texts one step from
    /// that shape do not, and every one of them decodes to what the generic parser reads.
    @Test func oneSetMessagesTakeTheLiteralMatcher() throws {
        let head = #"{"v":1,"storeId":"bench","messageId":"w7","seq":7"#
        let body = #","type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["items",3,"qty"],"value":"#
        let taken = [
            head + body + "2}]}]}}",
            head + #","ack":"n-2""# + body + #"{"a":[1,{"b":null}]}}]}]}}"#,
            #"{"v":1,"storeId":"c\u0061rt","messageId":5,"seq":1"# + body + #""é\n"}]}]}}"#,
            head + #","type":"apply_mutation","payload":{"mutations":[{"type":"patch function","ops":[{"op":"set","path":[],"value":{}}]}]}}"#,
            head + #","ack":7"# + body + "2}]}]}}", // no string: no ack, as the general decoder reads it
            head + body + #"2}]}],"getters":{"double":4,"label":{"$type":"undefined"}}}}"#, // the getters the write changed (A.13)
            head + body + #"2}]}],"getters":[4]}}"#,                                  // not an object: the hub says so later
        ]
        for text in taken {
            let decoded = try #require(StoreMessageDecoder.decodeSingleSet(text), "\(text)")
            #expect(decoded.untagged && decoded.dispatches.isEmpty)
            expectSameOutcome(text)
        }
        #expect(StoreMessageDecoder.decodeSingleSet(taken[2])?.storeId == "cart")
        #expect(StoreMessageDecoder.decodeSingleSet(taken[5])?.payload["getters"] == ["double": 4, "label": ["$type": "undefined"]])
        let left = [
            head + body + "2}]}]}} ",                                                   // trailing space
            head + body + "2}]}]}}x",                                                   // trailing junk
            head + body + "2}]}]}",                                                     // cut short
            #"{"v":2,"storeId":"bench","messageId":"w7","seq":7"# + body + "2}]}]}}",  // another version
            head + body + "2},{\"op\":\"delete\",\"path\":[\"n\"]}]}]}}",              // a second op
            head + #","type":"apply_mutation","payload":{"mutations":[{"type":"direct","dispatch":"n-1","ops":[{"op":"set","path":["n"],"value":1}]}]}}"#,
            head + #","type":"apply_mutation","payload":{"mutations":[{"type":"direct","action":"inc","call":1,"ops":[{"op":"set","path":["n"],"value":1}]}]}}"#,
            head + body + "2}]},{\"type\":\"direct\",\"ops\":[]}]}}",                    // a second mutation
            head + body.replacingOccurrences(of: #"["items",3,"qty"]"#, with: #"[{"k":1}]"#) + "2}]}]}}", // not a path
            head + body + #"2}]}],"getters":{"double":4},"other":1}}"#,               // a member after the getters
            head + body + #"2}]}],"other":1}}"#,                                      // another member than getters
            head + body + #"2}]}],"getters":{"double":4}}} "#,                        // trailing space after getters
        ]
        for text in left {
            #expect(StoreMessageDecoder.decodeSingleSet(text) == nil, "\(text)")
            expectSameOutcome(text)
        }
        // Tagged with a dispatch: the general decoder reads the tag the literal has no room for.
        #expect(StoreMessageDecoder.decode(left[5])?.dispatches == ["n-1"])
    }

    private func expectSameOutcome(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = Result { () throws(StoreMessageError) -> StoreMessage in try StoreMessage(text: text) }
        let generic = Result { () throws(StoreMessageError) -> StoreMessage in try StoreMessage(parsing: text) }
        switch (fast, generic) {
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        case (.success(let a), .success(let b)):
            #expect(a.type == b.type && a.storeId == b.storeId && a.messageId == b.messageId && a.seq == b.seq && a.ack == b.ack,
                    "envelope of \(text)", sourceLocation: sourceLocation)
            #expect(a.mutations == b.mutations, "mutations of \(text)", sourceLocation: sourceLocation)
            #expect(a.dispatches == b.dispatches && a.untagged == b.untagged, "tags of \(text)", sourceLocation: sourceLocation)
            if a.type != .applyMutation { #expect(a.payload == b.payload, "payload of \(text)", sourceLocation: sourceLocation) }
            #expect(a.payload["getters"] == b.payload["getters"], "getters of \(text)", sourceLocation: sourceLocation)
            if let depth = a.payloadDepth, case .object(let state)? = a.payload["state"] {
                #expect(JSONValue.object(state).nestingDepth() <= depth - 1, "depth of \(text)", sourceLocation: sourceLocation)
            }
        default:
            Issue.record("one path accepted, the other refused: \(text)\nfast: \(fast)\ngeneric: \(generic)", sourceLocation: sourceLocation)
        }
    }
}
