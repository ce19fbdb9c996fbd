import Foundation
import Testing

/// `statehub doc`: updates made by Yjs 13.5 (node-yjs) read back, merged and diffed.
@Suite(.tags(.integration))
struct DocCommandTests {
    // Client 1: board.title = "Sprint", cards.push(["a", {x: 1}]), notes.insert(0, "hi").
    static let first: [UInt8] = [1, 3, 1, 0, 40, 1, 5, 98, 111, 97, 114, 100, 5, 116, 105, 116, 108, 101, 1, 119, 6, 83, 112, 114, 105, 110, 116, 8, 1, 5, 99, 97, 114, 100, 115, 2, 119, 1, 97, 118, 1, 1, 120, 125, 1, 4, 1, 5, 110, 111, 116, 101, 115, 2, 104, 105, 0]
    // Then board.done = true, cards.delete(0, 1), encoded against the state vector [1, 1, 5].
    static let second: [UInt8] = [1, 1, 1, 5, 40, 1, 5, 98, 111, 97, 114, 100, 4, 100, 111, 110, 101, 1, 120, 1, 1, 1, 1, 1]
    static let stateVector: [UInt8] = [1, 1, 5]

    func files() throws -> (URL, URL, URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let urls = ["1.bin", "2.bin", "sv.bin"].map { folder.appendingPathComponent($0) }
        try Data(Self.first).write(to: urls[0])
        try Data(Self.second).write(to: urls[1])
        try Data(Self.stateVector).write(to: urls[2])
        return (urls[0], urls[1], urls[2], folder.appendingPathComponent("merged.bin"))
    }

    @Test func printsTheDocumentWithEachRootsKind() async throws {
        let (first, second, _, _) = try files()
        let result = try await StateHubBinary.run(["doc", first.path, second.path])
        #expect(result.status == 0)
        #expect(result.stdout == """
            {
              "board": {
                "title": "Sprint",
                "done": true
              },
              "cards": [
                {
                  "x": 1
                }
              ],
              "notes": "hi"
            }

            """)
    }

    @Test func stateVectorMergeAndDiff() async throws {
        let (first, second, vector, merged) = try files()
        let result = try await StateHubBinary.run(["doc", first.path, second.path, "--state-vector", "--merge", merged.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"stateVector\": {\n    \"1\": 6\n  }"))
        // Yjs's mergeUpdates of the two files, byte for byte.
        let expectedMerge: [UInt8] = [1, 4, 1, 0, 40, 1, 5, 98, 111, 97, 114, 100, 5, 116, 105, 116, 108, 101, 1, 119, 6, 83, 112, 114, 105, 110, 116, 8, 1, 5, 99, 97, 114, 100, 115, 2, 119, 1, 97, 118, 1, 1, 120, 125, 1, 4, 1, 5, 110, 111, 116, 101, 115, 2, 104, 105, 40, 1, 5, 98, 111, 97, 114, 100, 4, 100, 111, 110, 101, 1, 120, 1, 1, 1, 1, 1]
        #expect([UInt8](try Data(contentsOf: merged)) == expectedMerge)
        let diff = try await StateHubBinary.run(["doc", first.path, second.path, "--diff", vector.path])
        #expect(diff.status == 0)
        #expect(Array(diff.stdout.utf8) == Self.second)
    }

    @Test func badInputIsAnErrorNamingTheFile() async throws {
        let (first, _, _, _) = try files()
        let truncated = first.deletingLastPathComponent().appendingPathComponent("bad.bin")
        try Data(Self.first.prefix(20)).write(to: truncated)
        let result = try await StateHubBinary.run(["doc", truncated.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.bin"))
        #expect(result.stderr.contains("byte"))
        let missing = try await StateHubBinary.run(["doc", "/nonexistent/update.bin"])
        #expect(missing.status == 2)
    }

    @Test func pendingContentIsReportedWithExitCode3() async throws {
        let (_, second, _, _) = try files()
        let result = try await StateHubBinary.run(["doc", second.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("the document is incomplete"))
        #expect(result.stderr.contains("waiting: 1 struct of client 1 clock 5"))
        #expect(result.stderr.contains("missing: client 1 clocks 0–4"))
        #expect(result.stderr.contains("waiting: deletes of client 1 clock 1 (not received)"))
        // Given both, nothing waits.
        let (first, _, _, _) = try files()
        let complete = try await StateHubBinary.run(["doc", second.path, first.path])
        #expect(complete.status == 0)
        #expect(complete.stderr == "statehub: \(second.path): read as update format v1\nstatehub: \(first.path): read as update format v1\n")
    }

    /// Made by Yjs 13.5: `board.set('notes', new Y.Doc({ guid: 'notes-1', autoLoad: true,
    /// meta: { title: 'Notes' } }))`, `pages.push([new Y.Doc({ guid: 'page-2', gc: false })])`.
    @Test func subDocumentsShowTheirGuidAndOptions() async throws {
        let update: [UInt8] = [1, 2, 1, 0, 41, 1, 5, 98, 111, 97, 114, 100, 5, 110, 111, 116, 101, 115, 7, 110, 111, 116, 101, 115, 45, 49, 118, 2, 8, 97, 117, 116, 111, 76, 111, 97, 100, 120, 4, 109, 101, 116, 97, 118, 1, 5, 116, 105, 116, 108, 101, 119, 5, 78, 111, 116, 101, 115, 9, 1, 5, 112, 97, 103, 101, 115, 6, 112, 97, 103, 101, 45, 50, 118, 1, 2, 103, 99, 121, 0]
        let (first, _, _, merged) = try files()
        let file = first.deletingLastPathComponent().appendingPathComponent("subdocuments.bin")
        try Data(update).write(to: file)
        let result = try await StateHubBinary.run(["doc", file.path, "--merge", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            {
              "board": {
                "notes": {
                  "guid": "notes-1",
                  "autoLoad": true,
                  "meta": {
                    "title": "Notes"
                  }
                }
              },
              "pages": [
                {
                  "guid": "page-2",
                  "gc": false
                }
              ]
            }

            """)
        #expect([UInt8](try Data(contentsOf: merged)) == update)
    }

    @Test func v2UpdatesAreReadAndTheFormatIsNamed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Yjs's convertUpdateFormatV1ToV2 of `first` and `second`, and its mergeUpdatesV2 of both.
        let firstV2: [UInt8] = [0, 0, 1, 1, 0, 0, 5, 40, 0, 8, 0, 4, 26, 22, 98, 111, 97, 114, 100, 116, 105, 116, 108, 101, 99, 97, 114, 100, 115, 110, 111, 116, 101, 115, 104, 105, 69, 2, 2, 1, 1, 0, 2, 1, 2, 1, 3, 0, 119, 6, 83, 112, 114, 105, 110, 116, 119, 1, 97, 118, 1, 1, 120, 125, 1, 0]
        let secondV2: [UInt8] = [0, 0, 1, 1, 0, 0, 1, 40, 12, 9, 98, 111, 97, 114, 100, 100, 111, 110, 101, 5, 4, 1, 1, 0, 1, 1, 1, 1, 5, 120, 1, 1, 1, 1, 0]
        let mergedV2: [UInt8] = [0, 0, 1, 1, 0, 0, 7, 40, 0, 8, 0, 4, 0, 40, 37, 31, 98, 111, 97, 114, 100, 116, 105, 116, 108, 101, 99, 97, 114, 100, 115, 110, 111, 116, 101, 115, 104, 105, 98, 111, 97, 114, 100, 100, 111, 110, 101, 69, 2, 2, 5, 4, 1, 1, 0, 3, 1, 2, 1, 1, 4, 0, 119, 6, 83, 112, 114, 105, 110, 116, 119, 1, 97, 118, 1, 1, 120, 125, 1, 120, 1, 1, 1, 1, 0]
        let emptyV2: [UInt8] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]
        let names = ["1-v2.bin", "2-v2.bin", "empty-v2.bin", "1.bin"]
        let urls = names.map { folder.appendingPathComponent($0) }
        for (url, bytes) in zip(urls, [firstV2, secondV2, emptyV2, Self.first]) { try Data(bytes).write(to: url) }
        let merged = folder.appendingPathComponent("merged.bin")

        let result = try await StateHubBinary.run(["doc", urls[0].path, urls[1].path, "--merge", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"done\": true"))
        #expect(result.stderr == "statehub: \(urls[0].path): read as update format v2\nstatehub: \(urls[1].path): read as update format v2\n")
        #expect([UInt8](try Data(contentsOf: merged)) == mergedV2, "every file v2: the merge is Yjs's mergeUpdatesV2")

        let empty = try await StateHubBinary.run(["doc", urls[2].path])
        #expect(empty.status == 0)
        #expect(empty.stderr.contains("empty-v2.bin: read as update format v2"))

        // A v1 and a v2 file together: both read, the merge written as v1.
        let mixed = try await StateHubBinary.run(["doc", urls[3].path, urls[1].path, "--merge", merged.path])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(mixed.stderr.contains("1.bin: read as update format v1"))
        #expect(mixed.stderr.contains("2-v2.bin: read as update format v2"))
        #expect([UInt8](try Data(contentsOf: merged)).first == 1, "a v1 update of one client group")

        // A truncated v2 update is refused naming the format it was read as.
        let cut = folder.appendingPathComponent("cut-v2.bin")
        try Data(firstV2.prefix(firstV2.count - 3)).write(to: cut)
        let refused = try await StateHubBinary.run(["doc", cut.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cut-v2.bin: update format v2: "))
    }

    /// An update nesting maps 1,000 deep (each item's parent is the previous item's type): its
    /// JSON is refused by name, and merging still works at that depth.
    /// `doc --merge` that wrote its output exits 0, never 1 with the file written; without
    /// `--merge` nothing is produced and the exit is 1. 100,000 levels, as a hostile update
    /// might nest.
    @Test func aDocumentNestedPastTheLimitIsNotPrintedButMerges() async throws {
        func varuint(_ value: Int) -> [UInt8] {
            var value = value, bytes: [UInt8] = []
            while value >= 0x80 { bytes.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
            return bytes + [UInt8(value)]
        }
        let depth = 100_000
        var update = [1] + varuint(depth) + [7, 0]
        for clock in 0..<depth {
            // info 0x27: parentSub present, content ref 7 (type); parent root "m" or item (7, clock − 1); key "k"; a map.
            update += [0x27] + (clock == 0 ? [1, 1, 0x6D] : [0, 7] + varuint(clock - 1)) + [1, 0x6B, 1]
        }
        update += [0]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("deep.bin"), merged = folder.appendingPathComponent("merged.bin")
        try Data(update).write(to: input)
        let result = try await StateHubBinary.run(["doc", input.path, "--merge", merged.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("the document cannot be shown as JSON: value nested deeper than 512 levels"))
        #expect(result.stderr.contains("the merged update was written to \(merged.path)"))
        #expect([UInt8](try Data(contentsOf: merged)) == update)

        let printOnly = try await StateHubBinary.run(["doc", input.path])
        #expect(printOnly.status == 1)
        #expect(printOnly.stdout.isEmpty)
        #expect(printOnly.stderr.contains("the document cannot be shown as JSON"))
    }
}
