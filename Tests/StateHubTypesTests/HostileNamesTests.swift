import Foundation
import StateHub
import StateHubTypes
import Testing

/// Keys, actions and parameters named like the types the generated code names in expressions
/// (`container.decode(Int.self)`, `try JSONValue(encoding: x)`), and an action named like the
/// store's state type, still give a file that compiles. Generated/HostileNames.swift is
/// the writer's output for these observations, compiled with this target.
@Suite(.tags(.unit)) struct HostileNamesTests {
    static func observations() -> [StoreObservations] {
        var store = StoreObservations(id: "hostile")
        store.observe(state: [
            "Bool": true, "Int": 1, "Double": 1.5, "String": "s", "JSONValue": 2, "TaggedValue": "t",
            "TaggedDate": 3, "TaggedSet": 4, "TaggedMap": 5, "TaggedBigInt": 6, "DecodingError": 7,
            "mixed": [1, "a", true, ["x": 1], [2]],
            "inner": ["Int": 1, "String": "s", "list": [1, "b"]],
        ])
        store.declare(action: "take", parameters: ["JSONValue", "TaggedValue", "Int"])
        store.observe(action: "take", arguments: [1, "a", ["k": 1]])
        store.declare(action: "HostileState", parameters: ["value"])
        store.declare(action: "JSONValue", parameters: [])
        return [store]
    }

    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Generated/HostileNames.swift")

    @Test func theCommittedFileIsWhatTheWriterGives() throws {
        let generated = SwiftTypesWriter.write(stores: Self.observations(), sources: ["HostileNamesTests.observations()"])
        let committed = try String(contentsOf: Self.committed, encoding: .utf8)
        let difference = TypesCheck.difference(committed: committed, generated: generated)
        if difference != nil {
            try generated.write(to: FileManager.default.temporaryDirectory.appendingPathComponent("HostileNames.swift"), atomically: true, encoding: .utf8)
        }
        #expect(difference == nil, "the generated text is in \(FileManager.default.temporaryDirectory.path)/HostileNames.swift")
    }

    @Test func theGeneratedTypesDecodeAndEncodeSuchAState() throws {
        let mirror: JSONValue = [
            "Bool": false, "Int": 7, "Double": 0.5, "String": "x", "JSONValue": 1, "TaggedValue": "v",
            "TaggedDate": 1, "TaggedSet": 1, "TaggedMap": 1, "TaggedBigInt": 1, "DecodingError": 1,
            "mixed": [true, 2, "c", ["x": 3], [4]],
            "inner": ["Int": 9, "String": "y", "list": ["z", 5]],
        ]
        let state = try mirror.decodeMirror(HostileState.self)
        #expect(state.Int_ == 7)
        #expect(state.JSONValue_ == 1)
        #expect(state.mixed == [.bool(true), .int(2), .string("c"), .object(.init(x: 3)), .array([4])])
        #expect(state.inner.list == [.string("z"), .int(5)])
        #expect(try JSONValue(encoding: state).decodeMirror(HostileState.self) == state)
    }
}
