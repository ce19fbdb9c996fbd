import Foundation
import JSEngine
import Testing
@testable import StyleTokens

@Suite("Theme contract decoding", .tags(.unit))
struct ContractDecodingTests {
    @Test("the contract example decodes every field, in file order")
    func decodesStandardExample() throws {
        let contract = try ThemeContract(jsonData: ThemeFixtures.data(ThemeFixtures.standardJSON))
        #expect(contract.metadata.version == "1.1.0")
        #expect(contract.metadata.description == "Standard theme with updated primary button style.")
        #expect(contract.colors.keys == ["primary", "secondary", "background", "textPrimary", "textSecondary", "error"])
        #expect(contract.colors["primary"] == "#007AFF")
        #expect(contract.fonts.keys == ["headline", "body", "caption"])
        #expect(contract.fonts["body"] == FontDefinition(name: "HelveticaNeue", size: 17))
        #expect(contract.components.keys == ["primaryButton", "cardView"])
        #expect(contract.components["primaryButton"] == ComponentStyle(
            backgroundColor: "primary", textColor: "#FFFFFF", cornerRadius: 12, font: "body"))
        #expect(contract.components["cardView"]?.shadow == ShadowStyle(color: "#000000", opacity: 0.1, radius: 8, x: 0, y: 4))
        #expect(contract.dark == nil)
        #expect(contract.unknownFields.isEmpty)
    }

    @Test("key order follows the file even when it is not alphabetical")
    func keepsFileOrder() throws {
        let json = ##"{"metadata":{"version":"1.0.0"},"colors":{"zebra":"#000","apple":"#111","mango":"#222"}}"##
        let contract = try ThemeContract(jsonData: ThemeFixtures.data(json))
        #expect(contract.colors.keys == ["zebra", "apple", "mango"])
    }

    @Test("unknown keys are kept at every level and survive re-encoding")
    func keepsUnknownKeys() throws {
        let json = #"""
        {"metadata":{"version":"1.0.0","author":"ds"},"colors":{"primary":"#000"},
         "components":{"card":{"elevation":3,"shadow":{"color":"#000","opacity":1,"radius":1,"blur":"soft"}}},
         "dark":{"colors":{},"contrast":"high"},"animations":{"fast":0.2}}
        """#
        let contract = try ThemeContract(jsonData: ThemeFixtures.data(json))
        #expect(contract.metadata.unknownFields["author"] == .string("ds"))
        #expect(contract.components["card"]?.unknownFields["elevation"] == .number(3))
        #expect(contract.components["card"]?.shadow?.unknownFields["blur"] == .string("soft"))
        #expect(contract.dark?.unknownFields["contrast"] == .string("high"))
        #expect(contract.unknownFields["animations"] == ["fast": 0.2])

        let reencoded = try JSONEncoder().encode(contract)
        let again = try ThemeContract(jsonData: reencoded)
        #expect(again == contract)
    }

    @Test("a field of the wrong type names its path")
    func wrongTypeHasPath() {
        let json = #"{"metadata":{"version":"1.0.0"},"components":{"card":{"cornerRadius":"12"}}}"#
        #expect(throws: ThemeDecodingError.wrongType(path: "components.card.cornerRadius", expected: "number", found: "string")) {
            try ThemeContract(jsonData: ThemeFixtures.data(json))
        }
    }

    @Test("a missing required field names its path")
    func missingFieldHasPath() {
        let json = #"{"metadata":{"version":"1.0.0"},"fonts":{"body":{"name":"Helvetica"}}}"#
        #expect(throws: ThemeDecodingError.missingField(path: "fonts.body.size")) {
            try ThemeContract(jsonData: ThemeFixtures.data(json))
        }
        #expect(throws: ThemeDecodingError.missingField(path: "metadata")) {
            try ThemeContract(jsonData: ThemeFixtures.data(#"{"colors":{}}"#))
        }
    }

    @Test("malformed JSON reports line and column")
    func malformedJSONHasPosition() {
        let json = "{\n  \"metadata\": {\"version\": \"1.0.0\"},\n  \"colors\": {\"primary\" \"#000\"}\n}"
        #expect(throws: ThemeDecodingError.malformedJSON(line: 3, column: 24, reason: "expected ':' after key \"primary\"")) {
            try ThemeContract(jsonData: ThemeFixtures.data(json))
        }
        #expect(throws: ThemeDecodingError.malformedJSON(line: 1, column: 1, reason: "unexpected end of input")) {
            try ThemeContract(jsonData: Data())
        }
    }

    @Test("a duplicate key is an error with its path")
    func duplicateKeyHasPath() {
        let json = ##"{"metadata":{"version":"1.0.0"},"colors":{"primary":"#000","primary":"#111"}}"##
        #expect(throws: ThemeDecodingError.duplicateKey(path: "colors.primary", line: 1, column: 60)) {
            try ThemeContract(jsonData: ThemeFixtures.data(json))
        }
    }

    @Test("bytes that are not UTF-8 are refused")
    func refusesNonUTF8() {
        #expect(throws: ThemeDecodingError.notUTF8) {
            try ThemeContract(jsonData: Data([0x7B, 0xFF, 0x7D]))
        }
    }

    @Test("hostile nesting fails cleanly instead of exhausting the stack")
    func refusesDeepNesting() throws {
        let json = #"{"metadata":{"version":"1.0.0"},"x":"# + String(repeating: "[", count: 100_000)
        let error = #expect(throws: ThemeDecodingError.self) { try ThemeContract(jsonData: ThemeFixtures.data(json)) }
        guard case .malformedJSON(_, _, let reason) = error else {
            Issue.record("expected malformedJSON, got \(String(describing: error))")
            return
        }
        #expect(reason == "nesting deeper than 256 levels")
    }

    @Test("string escapes, including surrogate pairs, decode exactly")
    func decodesEscapes() throws {
        let value = try ThemeJSONDecoder().parse(ThemeFixtures.data(#"{"a":"x\"\\\/\n\u00e9\ud83d\ude00"}"#))
        #expect(value == ["a": "x\"\\/\né😀"])
    }
}
