import Testing
@testable import StateHubJSON

/// The parser's shortcuts against slower code that does not take them: numbers read
/// without a `String` against `Double(text)` (`strtod`), keys reused from the last object's
/// shape against the collecting parser (which builds every key itself), and the container
/// depth the parser reports against a walk of the value.
@Suite("Parser fast paths", .tags(.unit))
struct ParserFastPathTests {
    /// SplitMix64: the tests' inputs are the same on every run.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(below(10))) }) }
    }

    static let edgeNumbers = [
        "0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "1", "-1", "0.1", "0.5", "4499.5", "-123.456",
        "1e22", "1e23", "1e-22", "1e-23", "123456789012345", "1234567890123456", "9007199254740993",
        "123456789012345e22", "123456789012345e-22", "123456789012345e23", "0.000000000000000000001",
        "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "1e309", "-1e400", "1E5", "1e+5",
        "12345678901234.5", "1234567890123.45e9", "99999999999999.9", "0.30000000000000004",
        "1e0000000000000000000000001", "1e-0000000000000000000000001",
    ]

    @Test(arguments: edgeNumbers)
    func edgeNumbersReadAsStrtodReadsThem(text: String) throws {
        try expectSameAsStrtod(text)
    }

    @Test func randomNumbersReadAsStrtodReadsThem() throws {
        var random = Random(state: 18_2026_11_24)
        for _ in 0..<20_000 {
            var text = random.below(4) == 0 ? "-" : ""
            let integerDigits = 1 + random.below(18)
            let integer = random.digits(integerDigits).drop { $0 == "0" }
            text += integer.isEmpty ? "0" : String(integer)
            if random.below(2) == 0 { text += "." + random.digits(1 + random.below(18)) }
            if random.below(3) == 0 {
                text += ["e", "E"][random.below(2)] + ["", "+", "-"][random.below(3)] + String(random.below(40))
            }
            try expectSameAsStrtod(text)
        }
    }

    private func expectSameAsStrtod(_ text: String) throws {
        guard case .number(let parsed) = try JSONValue(parsing: text) else {
            Issue.record("\(text) is not a number")
            return
        }
        let expected = Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
        #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) against strtod's \(expected)")
    }

    /// Arrays of objects whose keys mostly repeat, with the ways a repeat can go wrong:
    /// a key more or less, another order, a duplicate, an escaped or non-ASCII spelling.
    @Test func repeatedShapesParseAsWithoutThem() throws {
        var random = Random(state: 20_261_124)
        let keys = ["id", "name", "value", "flags", "note", "a", "b", "é", "e\u{301}", #"\u0061"#, "a long key of more than fifteen bytes", "2", "10"]
        for _ in 0..<400 {
            var objects: [String] = []
            let base = (0..<random.below(6)).map { _ in keys[random.below(keys.count)] }
            for _ in 0..<(1 + random.below(6)) {
                var own = base
                switch random.below(6) {
                case 0: own.append(keys[random.below(keys.count)])
                case 1: if !own.isEmpty { own.removeLast() }
                case 2: own.shuffle(using: &random)
                case 3: if let first = own.first { own.append(first) } // a duplicate
                default: break
                }
                let members = own.enumerated().map { "\"\($0.element)\":\(random.below(2) == 0 ? String($0.offset) : "[{\"\($0.element)\":1}]")" }
                objects.append("{" + members.joined(separator: ",") + "}")
            }
            let text = "[" + objects.joined(separator: ",") + "]"
            let parsed = try JSONValue(parsing: text)
            let reference = JSONParser().parseCollecting(Array(text.utf8))
            #expect(reference.problems.isEmpty)
            #expect(parsed == reference.value, "\(text)")
            // Duplicates still refused when asked, shapes or not.
            let strict = JSONParser(options: JSONParsingOptions(duplicateKeys: .refuse))
            let strictReference = strict.parseCollecting(Array(text.utf8), maximumProblems: 1)
            #expect((try? strict.parse(text)) == strictReference.value, "\(text)")
        }
    }

    @Test func invalidUTF8KeysAreNotTakenForTheShape() throws {
        // 0xFF is repaired to U+FFFD: a later key spelled with U+FFFD's own bytes is the same
        // key, and the raw byte again is too; neither is mistaken for another key.
        var bytes = Array(#"[{"a\#u{FFFD}":1},{"a"#.utf8) + [0xFF] + Array(#"":2},{"ab":3}]"#.utf8)
        let parsed = try JSONParser().parse(bytes)
        #expect(parsed == [["a\u{FFFD}": 1], ["a\u{FFFD}": 2], ["ab": 3]])
        bytes = Array(#"[{"x":1,"y":2},{"x":1,"x":2}]"#.utf8)
        #expect(try JSONParser().parse(bytes) == [["x": 1, "y": 2], ["x": 2]])
    }

    @Test func reportedDepthIsTheValuesContainerDepth() throws {
        let cases: [(String, Int)] = [
            ("1", 0), ("[]", 1), ("{}", 1), ("[[]]", 2), (#"{"a":[]}"#, 2), (#"{"a":[1,{"b":{}}],"c":2}"#, 4),
            (#"[[[[5]]],[]]"#, 4), (#""[[[""#, 0),
        ]
        for (text, expected) in cases {
            var position = 0
            var deepest = -1
            var copy = text
            let value = try copy.withUTF8 { bytes in try JSONParser().parseValue(in: bytes, at: &position, deepest: &deepest) }
            #expect(deepest == expected, "\(text)")
            #expect(deepest == Self.containerDepth(value), "\(text)")
        }
    }

    private static func containerDepth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(containerDepth).max() ?? 0)
        case .object(let members): 1 + (members.values.map(containerDepth).max() ?? 0)
        default: 0
        }
    }
}

extension ParserFastPathTests.Random: RandomNumberGenerator {}
