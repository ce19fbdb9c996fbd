import Testing
@testable import SharedDocument
import StateHubTesting

/// Deep observation: a JSON mirror that applies each transaction's path operations stays
/// equal to the document, for local edits and for updates from another replica.
@Suite(.tags(.integration))
struct ObservationTests {
    @Test("path operations keep a JSON mirror equal to the document", arguments: Array(UInt64(1)...UInt64(20)))
    func mirrorFollowsDocument(seed: UInt64) throws {
        let document = SharedDocument(clientID: 1)
        let other = SharedDocument(clientID: 2)
        for (root, kind) in testRoots {
            _ = try document.root(root, kind: kind)
            _ = try other.root(root, kind: kind)
        }
        var mirror = try document.toJSON()
        var transactions = 0
        document.observeDeep { changes in
            transactions += 1
            for operation in changes.operations { applyOperation(operation, to: &mirror) }
        }
        var random = SeededRandomNumberGenerator(seed: seed)
        var generator = EditGenerator(random: SeededRandomNumberGenerator(seed: seed &+ 99), asciiText: false)
        for step in 0..<150 {
            if random.next() % 2 == 0 {
                try generator.edit(for: document).apply(to: document)
            } else {
                let before = other.encodeStateVector()
                try generator.edit(for: other).apply(to: other)
                if random.next() % 2 == 0 {
                    try document.applyUpdate(try other.encodeStateAsUpdate(stateVector: document.encodeStateVector()), origin: "remote")
                } else {
                    try document.applyUpdate(try other.encodeStateAsUpdate(stateVector: before), origin: "remote")
                }
            }
            let expected = canonicalJSON(try document.toJSON().jsonText)
            let actual = canonicalJSON(mirror.jsonText)
            #expect(actual == expected, "seed \(seed), step \(step): mirror diverged")
            if actual != expected { return }
        }
        #expect(transactions > 0)
    }

    @Test("a change set carries the transaction's origin and whether it was local")
    func originAndLocal() throws {
        let document = SharedDocument(clientID: 1)
        let map = try document.map("m")
        var seen: [(String?, Bool, [PathOperation])] = []
        document.observeDeep { seen.append(($0.origin as? String, $0.local, $0.operations)) }
        try document.transact(origin: "ui") { _ in try map.set("a", .int(1)) }
        let remote = SharedDocument(clientID: 2)
        try remote.map("m").set("b", .string("x"))
        try document.applyUpdate(try remote.encodeStateAsUpdate(), origin: "sync")
        #expect(seen.count == 2)
        #expect(seen.first?.0 == "ui")
        #expect(seen.first?.1 == true)
        #expect(seen.first?.2 == [.set(path: [.key("m"), .key("a")], value: .int(1))])
        #expect(seen.last?.0 == "sync")
        #expect(seen.last?.1 == false)
        #expect(seen.last?.2 == [.set(path: [.key("m"), .key("b")], value: .string("x"))])
    }
}
