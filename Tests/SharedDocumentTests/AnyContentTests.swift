import Foundation
import Testing
@testable import SharedDocument

/// `Any` content keeps runs of 32-bit integers packed (`AnyValues`): what a document shows and
/// encodes must not depend on that. Runs are split, merged with values of other kinds, and
/// the bytes are checked against Yjs's encoding of the same document.
@Suite(.tags(.integration))
struct AnyContentTests {
    @Test func packedIntegersSplitMergeAndEncodeAsYjsDoes() async throws {
        let document = SharedDocument(clientID: 9)
        let array = try document.array("a")
        let edges: [YValue] = [.int(0), .int(-1), .int(Int64(Int32.max)), .int(Int64(Int32.min)), .int(1 << 31), .int(-(1 << 40))]
        for value in edges { try array.push([value]) }
        try array.push((0..<50).map { .int(Int64($0)) })
        try array.insert([.int(7), .int(8)], at: 20)           // splits a packed run
        try array.insert([.double(3.5), .string("x"), .null], at: 25)
        try array.push([.int(1), .double(2.0), .double(-0.0), .bool(true)])
        try array.delete(at: 10, count: 5)
        let values = try array.toJSON()
        guard case .array(let elements) = values else {
            Issue.record("array.toJSON() is not an array: \(values)")
            return
        }
        let expectedCount: Int = 6 + 50 + 2 + 3 + 4 - 5
        #expect(elements.count == expectedCount)
        #expect(elements.prefix(6) == edges[...])
        #expect(Array(elements[10..<22]) == [.int(9), .int(10), .int(11), .int(12), .int(13), .int(7), .int(8), .int(14), .int(15), .int(16), .double(3.5), .string("x")])

        let ours = try document.encodeStateAsUpdate()
        let copy = SharedDocument(clientID: 10)
        _ = try copy.array("a")
        try copy.applyUpdate(ours)
        // Both are JavaScript numbers: 2^31 comes back as a float, 2.0 as an integer.
        func number(_ value: YValue) -> YValue {
            switch value {
            case .int(let integer): .double(Double(integer))
            case .array(let elements): .array(elements.map(number))
            default: value
            }
        }
        #expect(number(try copy.array("a").toJSON()) == number(values))
        #expect(try copy.encodeStateAsUpdate() == ours)

        let yjs = try PeerProcess(.yjs)
        try await yjs.send(["op": "new", "id": 1, "client": 77, "roots": testRootsForPeers])
        try await yjs.send(["op": "apply", "id": 1, "update": base64(ours)])
        let theirs = try await yjs.bytes(try yjs.send(["op": "encode", "id": 1]), "update")
        #expect(theirs == ours, "Yjs encodes the same document differently")
    }
}
