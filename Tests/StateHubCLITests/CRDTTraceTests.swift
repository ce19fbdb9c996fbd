import Foundation
@testable import StateHubCLI
import Testing

/// `statehub bench crdt --trace FILE` checks a josephg/editing-traces file before replaying it:
/// a patch past the document's length is a `CRDTTraceError` naming it, not an error mid-run.
@Suite("bench crdt --trace: malformed traces are named", .tags(.unit))
struct CRDTTraceTests {
    static func write(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crdt-trace-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aValidTraceLoadsEveryPatch() throws {
        let url = try Self.write(#"{"txns":[{"patches":[[0,0,"ab"],[1,1,"xyz"]]},{"patches":[[4,0,"!"]]}]}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        let ops = try CRDTWorkload.loadTrace(url.path)
        #expect(ops.map { "\($0.position),\($0.delete),\($0.insert)" } == ["0,0,ab", "1,1,xyz", "4,0,!"])
    }

    @Test func aPatchPastTheLengthIsNamed() throws {
        let url = try Self.write(#"{"txns":[{"patches":[[0,0,"ab"]]},{"patches":[[1,2,""]]}]}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try CRDTWorkload.loadTrace(url.path)
        } throws: { error in
            guard case CRDTTraceError.patchOutOfRange(let transaction, let patch, let position, let delete, let length) = error else { return false }
            return transaction == 1 && patch == 0 && position == 1 && delete == 2 && length == 2
        }
    }

    @Test func notATraceIsNamed() throws {
        let url = try Self.write(#"{"txns":[{"patch":[]}]}"#)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            _ = try CRDTWorkload.loadTrace(url.path)
        } throws: { error in
            guard case CRDTTraceError.notATrace = error else { return false }
            return true
        }
    }
}
