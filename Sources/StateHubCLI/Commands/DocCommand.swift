import ArgumentParser
import Foundation
import SharedDocument

/// `statehub doc FILE...`: applies Yjs update files (v1 or v2, detected per file) in order and
/// prints the document.
struct DocCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doc",
        abstract: "Look inside stored Yjs updates: apply them in order and print the document as JSON.",
        discussion: """
            Each root is shown as Yjs shows it after getMap / getArray / getText; the kind is read \
            from its content (keyed items: map, string content: text, otherwise array). \
            A sub-document (Yjs's `new Y.Doc()` in a map or array) is a document of its own \
            stored at its guid: it shows as an object with its guid and the options Yjs keeps \
            (`gc`, `autoLoad`, `meta`), e.g. {"guid": "4f0c…", "autoLoad": true}. \
            --diff writes the binary update a peer with that state vector lacks to standard output \
            instead of printing JSON. Each file's format, v1 (encodeStateAsUpdate) or v2 \
            (encodeStateAsUpdateV2), is detected and named on standard error \
            ("statehub: FILE: read as update format v2"); --merge and --diff write v2 when \
            every file is v2, v1 otherwise.

            Exit codes: 0 the document is complete (or, with --merge, the merged update was \
            written; a document too deep to print as JSON is then only noted on standard \
            error); 1 an update cannot be read (malformed), an output cannot be \
            written (nothing is written then), or, without --merge, the document nests shared \
            types deeper than 512 levels, which JSON cannot show (--merge and --diff still \
            work); 2 a file cannot be opened or an argument is wrong; 3 the document was printed, but the updates hold structs or deletes that \
            wait for content they do not include (listed on standard error: which clients, \
            from which clocks).
            """
    )

    @Argument(help: "Binary update files (Yjs update format v1 or v2), applied in the order given.")
    var files: [String]

    @Flag(help: "Print the state vector too (client → next clock).")
    var stateVector = false

    @Option(name: .customLong("merge"), help: "Write all the updates merged into one (Yjs mergeUpdates, or mergeUpdatesV2 when every file is v2) to this file.")
    var mergeOutput: String?

    @Option(name: .customLong("diff"), help: "A binary state vector file: write what the updates hold beyond it to standard output.")
    var diffStateVector: String?

    func run() async throws {
        var updates: [[UInt8]] = []
        for file in files {
            do {
                updates.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
            } catch {
                throw CLIError.unreadableFile(path: file, reason: error.localizedDescription).exit()
            }
        }
        let document = SharedDocument()
        // Every update as v1 too, for --merge and --diff.
        var updatesV1: [[UInt8]] = []
        for (file, update) in zip(files, updates) {
            let format = Updates.format(of: update)
            do {
                switch format {
                case .v1:
                    try document.applyUpdate(update)
                    updatesV1.append(update)
                case .v2:
                    try document.applyUpdateV2(update)
                    updatesV1.append(try Updates.convertV2ToV1(update))
                }
            } catch {
                Output.error("statehub: \(file): \(format): \(error)")
                throw ExitCode(1)
            }
            Output.error("statehub: \(file): read as \(format)")
        }
        // What --merge and --diff write: v2 when every update was v2.
        let outputV2 = updates.allSatisfy { Updates.format(of: $0) == .v2 }
        func written(_ update: [UInt8]) throws(UpdateDecodingError) -> [UInt8] { try outputV2 ? Updates.convertV1ToV2(update) : update }
        if let mergeOutput {
            do {
                let merged = try written(try Updates.merge(updatesV1))
                try Data(merged).write(to: URL(fileURLWithPath: mergeOutput), options: .atomic)   // all or nothing
            } catch {
                Output.error("statehub: cannot write \(mergeOutput): \(error)")
                throw ExitCode(1)
            }
        }
        if let diffStateVector {
            let vector: [UInt8]
            do {
                vector = [UInt8](try Data(contentsOf: URL(fileURLWithPath: diffStateVector)))
            } catch {
                throw CLIError.unreadableFile(path: diffStateVector, reason: error.localizedDescription).exit()
            }
            do {
                let diff = try written(try Updates.diff(try Updates.merge(updatesV1), stateVector: vector))
                FileHandle.standardOutput.write(Data(diff))
            } catch {
                Output.error("statehub: \(diffStateVector): \(error)")
                throw ExitCode(1)
            }
            return
        }
        document.inferRootKinds()
        let json: YValue
        do {
            json = try document.toJSON(subdocuments: .reference)
        } catch {
            // With --merge the merged update is the output asked for, and it is written: exit 0.
            // Without it, nothing was produced: exit 1.
            if let mergeOutput {
                Output.error("statehub: the document cannot be shown as JSON: \(error); not printed (the merged update was written to \(mergeOutput))")
                return
            }
            Output.error("statehub: the document cannot be shown as JSON: \(error) (--merge and --diff work at any depth)")
            throw ExitCode(1)
        }
        if stateVector {
            var vector = YObject()
            for (client, clock) in document.stateVector { vector[String(client)] = .int(Int64(clock)) }  // YObject orders integer keys itself
            Output.line(YValue.object(["document": json, "stateVector": .object(vector)]).jsonString(indent: 2))
        } else {
            Output.line(json.jsonString(indent: 2))
        }
        if let pending = document.pending {
            Output.error(Self.describe(pending))
            throw ExitCode(3)
        }
    }

    /// What the printed document lacks, for standard error.
    static func describe(_ pending: PendingContent) -> String {
        var lines = ["statehub: the document is incomplete: the updates hold content that waits for updates not given, and it is not shown"]
        for waiting in pending.structs {
            lines.append("  waiting: \(waiting.count) struct\(waiting.count == 1 ? "" : "s") of \(waiting.span)")
        }
        for span in pending.missing { lines.append("  missing: \(span)") }
        for span in pending.deletes { lines.append("  waiting: deletes of \(span) (not received)") }
        return lines.joined(separator: "\n")
    }
}
