import Testing
import StateHubJSON

/// Keys compare as JavaScript compares property names: by code units.
@Suite("JSON keys", .tags(.unit))
struct JSONKeyTests {
    @Test func canonicallyEquivalentKeysStayApart() throws {
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        #expect(composed == decomposed) // Swift's String says equal…
        #expect(JSONKey(composed) != JSONKey(decomposed)) // …JavaScript does not.
        let value = try JSONValue(parsing: #"{"\u00e9":1,"e\u0301":2}"#)
        #expect(value.objectValue?.count == 2)
        #expect(value[composed] == 1)
        #expect(value[decomposed] == 2)
        #expect(value.jsonText() == "{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(throws: Never.self) {
            try JSONValue(parsing: #"{"\u00e9":1,"e\u0301":2}"#, options: JSONParsingOptions(duplicateKeys: .refuse))
        }
        // String values compare the same way.
        #expect(JSONValue.string(composed) != JSONValue.string(decomposed))
        #expect(Set([JSONValue.string(composed), .string(decomposed)]).count == 2)
    }

    @Test func orderIsByUTF16CodeUnits() {
        // U+FF61 is one UTF-16 unit; U+1F600 is a surrogate pair (0xD83D…): JavaScript sorts it first.
        #expect(JSONKey("\u{1F600}") < JSONKey("\u{FF61}"))
        #expect(JSONKey("a") < JSONKey("b"))
        #expect(["b", "a", "B"].map { JSONKey($0) }.sorted().map(\.string) == ["B", "a", "b"])
    }
}
