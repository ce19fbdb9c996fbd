import Foundation
import StateHub
import StateHubTypes
import Testing

/// The rules of docs/types.md, on states built by hand, and hostile input.
@Suite(.tags(.unit)) struct InferenceTests {
    static func write(_ states: [JSONValue], id: String = "shop", calls: [(String, [JSONValue])] = []) -> String {
        var store = StoreObservations(id: id)
        for state in states { store.observe(state: state) }
        for (action, arguments) in calls { store.observe(action: action, arguments: arguments) }
        return SwiftTypesWriter.write(stores: [store], sources: ["test"])
    }

    @Test func integersBecomeDoublesOnceNonIntegral() {
        let text = Self.write([["a": 1, "b": 1], ["a": 2, "b": 1.5]])
        #expect(text.contains("public var a: Int\n"))
        #expect(text.contains("public var b: Double\n"))
    }

    @Test func absentOrNullFieldsAreOptional() {
        let text = Self.write([["a": 1, "b": "x", "c": .null], ["a": 2, "c": "y"]])
        #expect(text.contains("public var a: Int\n"))
        #expect(text.contains("public var b: String?\n"))
        #expect(text.contains("public var c: String?\n"))
    }

    @Test func arraysOfUnionsAreEnumsWithAssociatedValues() {
        let text = Self.write([["items": [1, "two", ["k": true]]]])
        #expect(text.contains("public var items: [Item]"))
        #expect(text.contains("public enum Item: Codable, Equatable, Sendable {"))
        #expect(text.contains("case int(Int)"))
        #expect(text.contains("case string(String)"))
        #expect(text.contains("case object(Object)"))
    }

    @Test func objectsWithIdKeysOrManySameShapedValuesAreDictionaries() {
        var many = JSONValue.ObjectMembers()
        for i in 0 ..< 8 { many[JSONKey("k\(i)")] = ["n": .number(Double(i))] }
        let text = Self.write([["byId": ["u-1": 1, "u-2": 2], "many": .object(many), "point": ["x": 1, "y": 2]]])
        #expect(text.contains("public var byId: [String: Int]"))
        #expect(text.contains("public var many: [String: ManyElement]"))
        #expect(text.contains("public var point: Point"))
    }

    @Test func taggedValuesMapToTheirWrappers() {
        let text = Self.write([[
            "at": ["$type": "Date", "value": "2026-11-22T10:00:00.000Z"],
            "big": ["$type": "BigInt", "value": "1"],
            "set": ["$type": "Set", "values": ["a"]],
            "map": ["$type": "Map", "entries": [[1, ["x": 1]]]],
            "nan": ["$type": "Number", "value": "NaN"],
            "gone": ["$type": "undefined"],
        ]])
        #expect(text.contains("public var at: TaggedDate\n"))
        #expect(text.contains("public var big: TaggedBigInt\n"))
        #expect(text.contains("public var set: TaggedSet<String>\n"))
        #expect(text.contains("public var map: TaggedMap<Int, MapElement>\n"))
        #expect(text.contains("public var nan: Double\n"))
        #expect(text.contains("public var gone: JSONValue?\n"))
    }

    @Test func actionsAreTypedFromTheirArgumentsAndJSONValueWhenNeverSeen() {
        var store = StoreObservations(id: "cart")
        store.observe(state: ["items": []])
        store.declare(action: "add", parameters: ["item"])
        store.declare(action: "clear", parameters: [])
        store.declare(action: "remove", parameters: ["id"])
        store.observe(action: "add", arguments: [["sku": "A", "qty": 1]])
        let text = SwiftTypesWriter.write(stores: [store], sources: [])
        #expect(text.contains("public func add(_ item: AddItem) async throws -> JSONValue {"))
        #expect(text.contains("public func clear() async throws -> JSONValue {"))
        #expect(text.contains("public func remove(_ id: JSONValue) async throws -> JSONValue {"))
        #expect(text.contains("public struct AddItem: Codable, Equatable, Sendable {"))
        #expect(text.contains("public var items: [JSONValue]"))
    }

    @Test func anActionOnlyATraceNamedTakesAnyArguments() {
        var store = StoreObservations(id: "cart")
        store.observe(state: ["items": []])
        store.mention(action: "refill")
        store.declare(action: "clear", parameters: [])
        store.mention(action: "clear")
        let text = SwiftTypesWriter.write(stores: [store], sources: [])
        #expect(text.contains("public func refill(_ arguments: JSONValue...) async throws -> JSONValue {"))
        #expect(text.contains(#"try await dispatch("refill", arguments)"#))
        #expect(text.contains("public func clear() async throws -> JSONValue {"))
    }

    /// docs/types.md, "Names": a type name Swift already uses gets `Value`, so a nested `Task`
    /// (from `tasks`) does not hide Swift's `Task` in an extension of the state type.
    @Test func keysThatGiveSwiftsOwnTypeNamesGetValueAppended() {
        let text = Self.write([["tasks": [["t": 1]], "results": [["ok": true]], "errors": [["m": "x"]]]])
        #expect(text.contains("public var tasks: [TaskValue]\n"))
        #expect(text.contains("public struct TaskValue: Codable, Equatable, Sendable {"))
        #expect(text.contains("public var results: [ResultValue]\n"))
        #expect(text.contains("public var errors: [ErrorValue]\n"))
        #expect(!text.contains("struct Task:") && !text.contains("struct Result:") && !text.contains("struct Error:"))
    }

    @Test func theSameObservationsGiveTheSameText() {
        let states: [JSONValue] = [["b": 1, "a": ["z": 1, "y": [1, "x"]]], ["c": true]]
        #expect(Self.write(states) == Self.write(states.reversed()))
    }

    // MARK: Hostile

    @Test func keysThatAreNoIdentifiersGetCodingKeys() {
        let text = Self.write([["class": 1, "": "e", "a-b": true, "__proto__": "p", "self": 1, "1st": 2, "é": 3, "quote\"\\": 4]])
        #expect(text.contains("public var `class`: Int"))
        #expect(text.contains("public var empty: String"))
        #expect(text.contains("public var aB: Bool"))
        #expect(text.contains("public var __proto__: String"))
        #expect(text.contains("public var self_: Int"))
        #expect(text.contains("public var _1st: Int"))
        #expect(text.contains("case empty = \"\""))
        #expect(text.contains("case aB = \"a-b\""))
        #expect(text.contains("case self_ = \"self\""))
        #expect(text.contains("= \"\\u{e9}\""))
        #expect(text.contains("case quote = \"quote\\\"\\\\\""))
        let ascii = text.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
    }

    @Test func aThousandLevelsEndInJSONValue() {
        var value: JSONValue = 1
        for _ in 0 ..< 1_000 { value = ["next": value] }
        var list: JSONValue = 1
        for _ in 0 ..< 1_000 { list = [list] }
        let text = Self.write([["deep": value, "list": list]])
        #expect(text.contains("JSONValue"))
        // Bounded: one nested struct per level up to the cap, not a thousand.
        #expect(text.components(separatedBy: "public struct Next").count - 1 <= TypeShape.maximumDepth + 1)
        value.dismantle()
        list.dismantle()
    }

    @Test func tenThousandKeys() {
        var same = JSONValue.ObjectMembers()
        var mixed = JSONValue.ObjectMembers()
        for i in 0 ..< 10_000 {
            same[JSONKey("k\(i)")] = .number(Double(i))
            mixed[JSONKey("k\(i)")] = i.isMultiple(of: 2) ? .number(1) : .string("s")
        }
        let nested = Self.write([["rows": .object(same), "mixed": .object(mixed)]])
        #expect(nested.contains("public var rows: [String: Int]"))
        #expect(nested.contains("public var mixed: JSONValue"))
        #expect(Self.write([.object(same)]).contains("public typealias ShopState = [String: Int]"))
        #expect(Self.write([.object(mixed)]).contains("public typealias ShopState = JSONValue"))
    }

    /// A 2 MB trace line calling an action with a million arguments gives a variadic method, not
    /// 500 MB of shapes and a 62 MB method of a million parameters.
    @Test func aMillionArgumentsGiveAnyArgumentsAndNoMillionShapes() {
        var store = StoreObservations(id: "shop")
        store.observe(action: "flood", arguments: Array(repeating: 0, count: 1_000_000))
        store.declare(action: "wide", parameters: (0 ..< 1_000).map { "p\($0)" })
        #expect(store.actions["flood"]?.arguments.count == ActionObservations.maximumArity)
        #expect(store.actions["flood"]?.tooManyArguments == true)
        #expect(store.actions["wide"]?.parameterNames.isEmpty == true)
        let text = SwiftTypesWriter.write(stores: [store], sources: ["test"])
        #expect(text.contains("public func flood(_ arguments: JSONValue...) async throws -> JSONValue"))
        #expect(text.contains("public func wide(_ arguments: JSONValue...) async throws -> JSONValue"))
        #expect(text.utf8.count < 4_000)
    }

    @Test func checkSummarizesADifference() {
        #expect(TypesCheck.difference(committed: "a\nb\nc\n", generated: "a\nb\nc\n") == nil)
        let summary = TypesCheck.difference(committed: "a\nb\nc\n", generated: "a\nB\nc\n")
        #expect(summary == "differs from line 2: 1 line committed, 1 generated in their place\n- b\n+ B")
    }
}
