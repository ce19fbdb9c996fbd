import Foundation

/// Snapshots that could not be written (docs/pool.md, "Snapshots"), each with its store, file and
/// why: a folder that cannot be created, a full disk, a state too deep to write.
public struct StoreSnapshotSaveError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Failure: Sendable, Equatable, CustomStringConvertible {
        public var storeId: String
        /// The snapshot file that was to be written.
        public var path: String
        public var reason: String

        public var description: String { "the snapshot of store \"\(storeId)\" could not be written to \(path): \(reason)" }
    }

    /// Every store that was not saved, in the order tried; the others were.
    public var failures: [Failure]

    public var description: String { failures.map(\.description).joined(separator: "; ") }

    /// Foundation's own words for a file error ("You don't have permission…"), else the error.
    static func reason(_ error: any Error) -> String {
        (error as? CocoaError)?.localizedDescription ?? String(describing: error)
    }
}
