import Foundation
import Testing
import StateHubJSON

/// Nothing that walks a value recurses once per level.
@Suite("deep values", .tags(.unit))
struct DeepValueTests {
    static let depth = 100_000

    /// `depth` arrays around `1`, built without recursion.
    static func nested(_ depth: Int, around inner: JSONValue = 1) -> JSONValue {
        var value = inner
        for level in 0..<depth { value = level.isMultiple(of: 2) ? .array([value]) : .object(["k": value]) }
        return value
    }

    @Test func textEqualityAndHashingWalkAnyDepth() {
        let value = Self.nested(Self.depth)
        let same = Self.nested(Self.depth)
        let other = Self.nested(Self.depth, around: 2)
        // Plain Bools: `#expect` would describe the operands, recursively, if one failed.
        let text = value.jsonText()
        #expect(text.utf8.count == Self.depth / 2 * 2 + Self.depth / 2 * 6 + 1)
        #expect(text.hasSuffix("1" + String(repeating: "]}", count: Self.depth / 2)))
        let equal = value == same
        let different = value != other
        let sameHash = value.hashValue == same.hashValue
        #expect(equal)
        #expect(different)
        #expect(sameHash)
        // `consume`: the variables would otherwise keep the values alive to the end of the scope.
        (consume value).dismantle()
        (consume same).dismantle()
        (consume other).dismantle()
    }

    @Test func dismantleFreesAnyDepth() {
        // Dropped the ordinary way, this would recurse 100,000 levels deep.
        Self.nested(Self.depth).dismantle()
        var built: JSONValue = 1
        for _ in 0..<Self.depth { built = .array([built]) }
        (consume built).dismantle()
        // Shared parts survive.
        let shared: JSONValue = ["a": [1, 2]]
        let whole: JSONValue = .array([shared, shared])
        whole.dismantle()
        #expect(shared == ["a": [1, 2]])
    }

    @Test func codableStopsAtTheCap() throws {
        let tooDeep = Self.nested(JSONParsingOptions.defaultMaximumDepth + 1)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(tooDeep) }
        let fine = Self.nested(100)
        let data = try JSONEncoder().encode(fine)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == fine)
        let deepText = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(deepText.utf8)) }
    }
}
