import Testing
@testable import SharedDocument
import StateHubTesting

/// A random-mutation fuzz loop (not libFuzzer): valid updates from seeded editing sessions,
/// mutated (bytes flipped, inserted, removed, runs copied between updates, truncated), are
/// applied to fresh and populated documents and given to the document-free functions.
/// Nothing may crash; a refused update leaves the document unchanged; an accepted one leaves
/// a document that still encodes, re-reads and prints.
@Suite(.tags(.integration))
struct FuzzTests {
    @Test("mutated updates never crash and never half-apply", arguments: Array(UInt64(1)...UInt64(4)))
    func mutatedUpdates(seed: UInt64) throws {
        let corpus = try randomSessionUpdates(seed: seed, edits: 60)
        var random = SeededRandomNumberGenerator(seed: seed &* 7919)
        let base = SharedDocument(clientID: 500)
        try base.applyUpdate(corpus[corpus.count - 1])
        let baseUpdate = try base.encodeStateAsUpdate()
        var accepted = 0
        var refused = 0
        for _ in 0..<2500 {
            var bytes = corpus[Int(random.next() % UInt64(corpus.count))]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                guard !bytes.isEmpty else { break }
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 6 {
                case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                case 1: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                case 3: bytes.remove(at: position)
                case 4: bytes.removeSubrange(position...)
                default:
                    let other = corpus[Int(random.next() % UInt64(corpus.count))]
                    let start = Int(random.next() % UInt64(other.count))
                    let end = min(other.count, start + 1 + Int(random.next() % 8))
                    bytes.replaceSubrange(position..<min(bytes.count, position + end - start), with: other[start..<end])
                }
            }
            let document = SharedDocument(clientID: 500)
            try document.applyUpdate(baseUpdate)
            let before = try document.encodeStateAsUpdate()
            do {
                try document.applyUpdate(bytes)
            } catch {
                refused += 1
                #expect(try document.encodeStateAsUpdate() == before, "refused update (\(error)) changed the document: \(bytes)")
                continue
            }
            accepted += 1
            // What a document accepted, it can encode, and another document reads that
            // encoding without error. (Not necessarily to the same JSON: structs a mutation
            // left pending may integrate in another order when they arrive in one update, as
            // in Yjs, and roots named only by such structs show as empty.)
            let after = try document.encodeStateAsUpdate()
            let copy = SharedDocument(clientID: 501)
            try copy.applyUpdate(after)
            document.inferRootKinds()
            copy.inferRootKinds()
            _ = try document.toJSON()
            _ = try copy.toJSON()
            let fresh = SharedDocument(clientID: 502)
            _ = try? fresh.applyUpdate(bytes)
            _ = try? Updates.merge([bytes, corpus[0]])
            _ = try? Updates.diff(bytes, stateVector: base.encodeStateVector())
            _ = try? Updates.encodeStateVectorFromUpdate(bytes)
        }
        #expect(accepted > 0)
        #expect(refused > 0)
    }
}
