import Testing
@testable import SharedDocument
import StateHubTesting

/// `YValue.jsonString`: JavaScript's spelling of every number (checked against Yjs's
/// `JSON.stringify` under node), and any depth written without recursion.
@Suite(.tags(.integration))
struct JSONTextTests {
    /// Doubles whose shortest spelling differs between Swift's `description` and JavaScript,
    /// plus random bit patterns.
    static func doubles() -> [Double] {
        var values: [Double] = [1.5, 0.1, 1e21, 1e-7, 123456789012, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.000001,
                                1e20, 9007199254740992, 9007199254740994, 100, 1.0 / 3, -2.5e-8, 4.35, 1e300, 2e-6, 123e-20]
        var generator = SeededRandomNumberGenerator(seed: 0x5EED)
        while values.count < 2_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        return values
    }

    @Test func numbersAreSpelledAsJSONStringifySpellsThem() async throws {
        let document = SharedDocument(clientID: 11)
        try document.array("n").push(Self.doubles().map(YValue.double))
        // Members whose value is undefined are left out of objects and null in arrays, as
        // JSON.stringify does; integers stay integers.
        try document.map("m").set("o", .object(["a": .undefined, "b": .int(-7), "c": .array([.undefined, .null, .double(-0.0)])]))
        let yjs = try PeerProcess(.yjs)
        let reply = try await yjs.send(["op": "jsonOfUpdate", "update": base64(try document.encodeStateAsUpdate()), "roots": [["n", "array"], ["m", "map"]]])
        let expected = try #require(reply["json"] as? String)
        #expect(try document.toJSON().jsonString() == expected)
    }

    @Test func smallNestingIsWrittenInOrder() {
        var value = YValue.string("x")
        for level in 0..<4 { value = level.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
        #expect(value.jsonString() == #"{"k":[{"k":["x"]}]}"#)
        #expect(YValue.object(["a": .int(1), "b": .array([.int(2), .object(YObject())]), "c": .undefined]).jsonString() == #"{"a":1,"b":[2,{}]}"#)
        #expect(YValue.array([.undefined, .bytes([7, 8])]).jsonString(indent: 1) == "[\n null,\n {\n  \"0\": 7,\n  \"1\": 8\n }\n]")
    }

    /// Keys in JavaScript's order whatever order they were set in: integer-like keys ascending
    /// (up to 2³²−2), then the others in insertion order; removing and re-adding moves a named
    /// key to the end. 200,000 client-id keys set in descending order (what a state vector of
    /// many clients gives) cost O(1) each, not a quadratic walk.
    @Test func keysFollowJavaScriptsOrderWhateverTheOrderTheyArrive() {
        var object = YObject()
        for key in ["b", "10", "a", "2", "01", "4294967295", "4294967294", "0", "-1", "1.5"] { object[key] = .int(1) }
        #expect(object.keys == ["0", "2", "10", "4294967294", "b", "a", "01", "4294967295", "-1", "1.5"])
        object["b"] = nil
        object["2"] = nil
        object["b"] = .int(2)
        #expect(object.keys == ["0", "10", "4294967294", "a", "01", "4294967295", "-1", "1.5", "b"])
        #expect(object.count == 9)
        #expect(Array(object.map(\.key)) == object.keys)
        #expect(object["b"] == .int(2) && object["2"] == nil)

        var clients = YObject()
        for client in stride(from: 200_000, to: 0, by: -1) { clients[String(client)] = .int(Int64(client)) }
        let keys = clients.keys
        #expect(keys.count == 200_000)
        #expect(keys.first == "1" && keys.last == "200000")
        #expect(zip(keys, keys.dropFirst()).allSatisfy { Int($0)! < Int($1)! })
    }

    @Test func aValue100000LevelsDeepIsWrittenWithoutRecursion() throws {
        var value = YValue.string("x")
        for level in 0..<100_000 { value = level.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
        let text = value.jsonString()
        #expect(text.utf8.count == 100_000 / 2 * ("[".count + "]".count + "{\"k\":".count + "}".count) + 3)
        #expect(text.hasPrefix("{\"k\":[{\"k\":["))
        #expect(text.contains(#"{"k":[{"k":["x"]}]}]}"#))
        #expect(text.hasSuffix("]}]}]}"))
        unwind(consume value)
        // Indented, the text grows with the square of the depth (as JSON.stringify's does):
        // 300 levels are 90 KB of spaces.
        var indentedValue = YValue.null
        for level in 0..<300 { indentedValue = level.isMultiple(of: 2) ? .array([indentedValue]) : .object(["k": indentedValue]) }
        let indented = indentedValue.jsonString(indent: 2)
        #expect(indented.hasPrefix("{\n  \"k\": [\n    {\n      \"k\": ["))
        #expect(indented.contains(String(repeating: " ", count: 2 * 300) + "null\n" + String(repeating: " ", count: 2 * 299) + "]\n" + String(repeating: " ", count: 2 * 298) + "}"))
        #expect(indented.hasSuffix("\n  ]\n}"))
    }

    @Test func sharedValuesDeeperThanTheLimitAreRefused() throws {
        var value = YValue.null
        for _ in 0..<100_000 { value = .array([value]) }
        let document = SharedDocument(clientID: 4)
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.map("m").set("deep", value) }
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.array("a").push([value]) }
        #expect(try document.toJSON() == .object(["m": .object(YObject()), "a": .array([])]))
        var shallow = YValue.null
        for _ in 0..<(UpdateDecodingError.maximumNesting - 1) { shallow = .array([shallow]) }
        try document.map("m").set("ok", shallow)
        let copy = SharedDocument()
        try copy.applyUpdate(try document.encodeStateAsUpdate())
        #expect(try copy.map("m").get("ok") == shallow)
        unwind(consume value)
    }

    /// Frees a deep value one level at a time (Swift's own release would recurse).
    func unwind(_ value: consuming YValue) {
        var current = value
        while true {
            switch current {
            case .array(let elements) where elements.count == 1: current = elements[0]
            case .object(let object) where object.count == 1: current = object[object.keys[0]] ?? .null
            default: return
            }
        }
    }
}
