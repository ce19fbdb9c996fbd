import Foundation
import Testing
@testable import SharedDocument
import StateHubTesting

/// Swift, Yjs (node-yjs 13.5) and Yrs (pycrdt) replicas edited concurrently at random,
/// updates exchanged in random order with duplicates. Every Yjs replica has a Swift twin
/// (same client id, same edits, same updates in the same order) whose encoding must be
/// byte-identical to Yjs's after every step. Yrs retries pending structs at other moments
/// than Yjs, so a Yrs replica's state can differ from a twin's mid-run: its edits are
/// generated from a Swift document loaded from its own current state instead. Yrs also
/// integrates structs after a gap in a client's clocks (encoding the gap as a Skip) where
/// Yjs waits, so its visible state may hold more than that document: an edit that does not
/// fit Yrs's state is skipped by the Yrs peer.
@Suite(.tags(.integration), .serialized)
struct DifferentialTests {
    final class Replica {
        let name: String
        let twin: SharedDocument
        let peer: PeerProcess?
        let id: Int
        /// Yrs's panic message once Yrs panicked inside its own edit code: the replica takes
        /// no further part (its state is no longer Yrs's idea of a document).
        var retired: String?

        init(name: String, client: Int, peer: PeerProcess?, id: Int) async throws {
            self.name = name
            self.twin = SharedDocument(clientID: client)
            self.peer = peer
            self.id = id
            for (root, kind) in testRoots { _ = try twin.root(root, kind: kind) }
            try await peer?.send(["op": "new", "id": id, "client": client, "roots": testRootsForPeers])
        }

        func stateVector() async throws -> [UInt8] {
            guard let peer else { return twin.encodeStateVector() }
            return try await peer.bytes(try peer.send(["op": "sv", "id": id]), "sv")
        }

        func encode(stateVector: [UInt8]? = nil) async throws -> [UInt8] {
            guard let peer else { return try twin.encodeStateAsUpdate(stateVector: stateVector) }
            var command: [String: Any] = ["op": "encode", "id": id]
            if let stateVector { command["sv"] = base64(stateVector) }
            return try await peer.bytes(try peer.send(command), "update")
        }

        func json() async throws -> String {
            guard let peer else { return try twin.toJSON().jsonText }
            return try await peer.send(["op": "json", "id": id])["json"] as? String ?? ""
        }

        /// Yjs twins must encode exactly as Yjs after every step.
        func checkTwin(_ context: @autoclosure () -> String) async throws {
            guard let peer, peer.kind == .yjs else { return }
            switch peer.kind {
            case .yjs:
                let theirs = try await encode()
                let ours = try twin.encodeStateAsUpdate()
                #expect(ours == theirs, "\(name): Swift twin's update differs from Yjs's after \(context())")
                if ours != theirs { throw PeerProcess.Failure(description: "twin diverged") }
                let theirJSON = try await json()
                let ourJSON = try twin.toJSON().jsonText
                #expect(ourJSON == theirJSON, "\(name): Swift twin's toJSON differs from Yjs's after \(context())")
            case .yrs:
                break
            }
        }

        var isYrs: Bool { peer?.kind == .yrs }

        /// The document edits are generated from: the twin, or for Yrs its own current state.
        func generationDocument() async throws -> SharedDocument {
            guard isYrs else { return twin }
            let document = SharedDocument(clientID: twin.clientID)
            for (root, kind) in testRoots { _ = try document.root(root, kind: kind) }
            try await document.applyUpdate(try encode())
            return document
        }

        func edit(_ edit: Edit) async throws {
            if !isYrs { try edit.apply(to: twin) }
            let reply = try await peer?.send(["op": "edit", "id": id, "edits": [edit.command]])
            if let panic = reply?["panicked"] as? String { retired = panic }
        }

        func apply(_ update: [UInt8]) async throws {
            if !isYrs { try twin.applyUpdate(update) }
            try await peer?.send(["op": "apply", "id": id, "update": base64(update)])
        }
    }

    /// Runs one seed; returns normally when all replicas converged as required.
    func run(seed: UInt64, layout: [PeerProcess.Kind?], edits: Int, yjs: PeerProcess, yrs: PeerProcess, idBase: Int) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let hasYrs = layout.contains { $0 == .yrs }
        var generator = EditGenerator(random: SeededRandomNumberGenerator(seed: seed &* 31 &+ 7), asciiText: hasYrs)
        generator.cutsPairs = !hasYrs
        var replicas: [Replica] = []
        for (index, kind) in layout.enumerated() {
            let peer: PeerProcess? = kind == .yjs ? yjs : kind == .yrs ? yrs : nil
            // Distinct clients per replica; some high ids so client order matters in encodings.
            let client = [7, 1_000_003, 42, 3_000_000_000, 5][index % 5] + Int(seed % 97)
            await replicas.append(try Replica(name: "replica \(index) (\(kind.map { "\($0)" } ?? "swift"))", client: client, peer: peer, id: idBase + index))
        }
        var queue: [(to: Int, update: [UInt8])] = []
        var produced: [[UInt8]] = []
        for step in 0..<edits {
            let author = Int(random.next() % UInt64(replicas.count))
            let replica = replicas[author]
            if replica.retired != nil { continue }
            let before = try await replica.stateVector()
            let edit = try await generator.edit(for: try replica.generationDocument())
            try await replica.edit(edit)
            if replica.retired != nil { continue }
            try await replica.checkTwin("edit \(step) \(edit.kind) (seed \(seed))")
            let update = try await replica.encode(stateVector: before)
            for other in replicas.indices where other != author { queue.append((other, update)) }
            produced.append(update)
            // Sometimes a whole-state sync from a random replica to another, delivered later.
            if random.next() % 7 == 0 {
                let from = Int(random.next() % UInt64(replicas.count))
                let to = Int(random.next() % UInt64(replicas.count))
                if from != to, replicas[from].retired == nil, replicas[to].retired == nil { await queue.append((to, try replicas[from].encode(stateVector: try replicas[to].stateVector()))) }
            }
            // Deliver a few messages in random order; some stay queued to arrive again.
            for _ in 0..<Int(random.next() % 3) where !queue.isEmpty {
                let pick = Int(random.next() % UInt64(queue.count))
                let message = queue[pick]
                if random.next() % 5 != 0 { queue.remove(at: pick) }
                if replicas[message.to].retired != nil { continue }
                try await replicas[message.to].apply(message.update)
                try await replicas[message.to].checkTwin("delivery at step \(step) (seed \(seed))")
            }
        }
        while !queue.isEmpty {
            let message = queue.remove(at: Int(random.next() % UInt64(queue.count)))
            if replicas[message.to].retired != nil { continue }
            try await replicas[message.to].apply(message.update)
            try await replicas[message.to].checkTwin("final delivery (seed \(seed))")
        }
        for _ in 0..<2 {
            for from in replicas.indices {
                for to in replicas.indices where from != to && replicas[from].retired == nil && replicas[to].retired == nil {
                    try await replicas[to].apply(try replicas[from].encode(stateVector: try replicas[to].stateVector()))
                    try await replicas[to].checkTwin("full sync (seed \(seed))")
                }
            }
        }
        // Yrs panicked on an edit the peer's checks let through (docs/shared-document.md,
        // "Tests"): known, not ours; the other replicas went on and are checked.
        for replica in replicas {
            guard let panic = replica.retired else { continue }
            withKnownIssue("Yrs (pycrdt) panicked on its own edit of text it shows: \(panic)") {
                Issue.record("seed \(seed): \(replica.name) retired after a Yrs panic")
            }
        }
        let live = replicas.filter { $0.retired == nil }
        // Converged: same JSON and state vector everywhere.
        let reference = await canonicalJSON(try replicas[0].json())
        let referenceVector = try await Updates.decodeStateVector(try replicas[0].stateVector())
        for replica in live {
            await #expect(canonicalJSON(try replica.json()) == reference, "seed \(seed): \(replica.name) did not converge")
            await #expect(try Updates.decodeStateVector(try replica.stateVector()) == referenceVector, "seed \(seed): \(replica.name) has another state vector")
            if !replica.isYrs {
                #expect(canonicalJSON(try replica.twin.toJSON().jsonText) == reference, "seed \(seed): \(replica.name)'s Swift twin did not converge")
            }
        }
        // The document-free functions give Yjs's bytes: merges of the exchanged updates in
        // random groups, diffs against state vectors met in the run, state vectors of updates.
        for round in 0..<6 {
            var group: [[UInt8]] = []
            for _ in 0..<(1 + Int(random.next() % 6)) where !produced.isEmpty { group.append(produced[Int(random.next() % UInt64(produced.count))]) }
            if round == 0 { group = produced }
            let ours = try Updates.merge(group)
            let theirs = try await yjs.bytes(try yjs.send(["op": "merge", "updates": group.map(base64)]), "update")
            #expect(ours == theirs, "seed \(seed): mergeUpdates differs from Yjs's (round \(round))")
            let vector = replicas[Int(random.next() % UInt64(replicas.count))].twin.encodeStateVector()
            let emptyVector: [UInt8] = [0]
            for sv in [vector, emptyVector] {
                let ourDiff = try Updates.diff(ours, stateVector: sv)
                let theirDiff = try await yjs.bytes(try yjs.send(["op": "diff", "update": base64(theirs), "sv": base64(sv)]), "update")
                #expect(ourDiff == theirDiff, "seed \(seed): diffUpdate differs from Yjs's (round \(round))")
            }
            let ourVector = try Updates.encodeStateVectorFromUpdate(ours)
            let theirVector = try await yjs.bytes(try yjs.send(["op": "svFromUpdate", "update": base64(theirs)]), "sv")
            #expect(ourVector == theirVector, "seed \(seed): encodeStateVectorFromUpdate differs from Yjs's (round \(round))")
        }
        // Every replica's full update is read the same by Swift, Yjs and Yrs.
        for replica in live {
            let update = try await replica.encode()
            // Yrs 0.28 can write a full update that does not reach its own state vector (seed
            // 104: after a GC struct over items it integrated past a clock gap, a Skip over
            // structs it holds, a length wrapped to 2^32-2): shown by Yrs alone, and no reader
            // can read it as Yrs shows it.
            let ownVector = try await Updates.decodeStateVector(try replica.stateVector())
            let updateVector = try Updates.decodeStateVector(try Updates.encodeStateVectorFromUpdate(update))
            let selfInconsistent = replica.isYrs && updateVector != ownVector
            guard !selfInconsistent else {
                withKnownIssue("Yrs (pycrdt) wrote a full update that stops short of its own state vector") {
                    Issue.record("seed \(seed): \(replica.name)'s update is not its state")
                }
                continue
            }
            let fresh = SharedDocument(clientID: 1)
            for (root, kind) in testRoots { _ = try fresh.root(root, kind: kind) }
            try fresh.applyUpdate(update)
            #expect(canonicalJSON(try fresh.toJSON().jsonText) == reference, "seed \(seed): Swift reads \(replica.name)'s update differently")
            for peer in [yjs, yrs] {
                let json = try await peer.send(["op": "jsonOfUpdate", "update": base64(update), "roots": testRootsForPeers])["json"] as? String ?? ""
                #expect(canonicalJSON(json) == reference, "seed \(seed): \(peer.kind) reads \(replica.name)'s update differently")
            }
        }
    }

    @Test("Swift and Yjs replicas converge; Swift twins encode byte for byte as Yjs", arguments: Array(UInt64(1)...UInt64(12)))
    func swiftAndYjs(seed: UInt64) async throws {
        let yjs = try PeerProcess(.yjs)
        let yrs = try PeerProcess(.yrs)
        do {
            try await run(seed: seed, layout: [nil, .yjs, .yjs, nil], edits: 120, yjs: yjs, yrs: yrs, idBase: 0)
        } catch {
            Issue.record("failing seed \(seed): \(error)")
        }
    }

    @Test("Swift, Yjs and Yrs replicas converge", arguments: Array(UInt64(101)...UInt64(108)))
    func swiftYjsAndYrs(seed: UInt64) async throws {
        let yjs = try PeerProcess(.yjs)
        let yrs = try PeerProcess(.yrs)
        do {
            try await run(seed: seed, layout: [nil, .yjs, .yrs, nil, .yrs], edits: 100, yjs: yjs, yrs: yrs, idBase: 0)
        } catch {
            Issue.record("failing seed \(seed): \(error)")
        }
    }
}
