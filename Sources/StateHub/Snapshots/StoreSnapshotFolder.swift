import Crypto
import Foundation
import JSEngine
import Logging

/// A folder of store snapshots: one JSON file per store holding its last mirrored state, written
/// atomically, read back and checked before a page hydrates a store from it (docs/pool.md).
///
/// ```swift
/// let folder = StoreSnapshotFolder(url: supportURL.appending(path: "statehub-snapshots"))
/// try folder.save(from: page.hub)          // when the shell backgrounds or closes the page
/// let page = try await HostedPage.make(.init(bundles: [cart], snapshots: folder))
/// ```
///
/// A value type with no state of its own beyond the files: copies share the folder.
public struct StoreSnapshotFolder: Sendable {
    /// The folder; created on the first save.
    public var url: URL
    /// Files larger than this are dropped unread (default: the hub's message cap, 8 MiB).
    public var maximumBytes: Int
    /// Where dropped snapshots are logged, at `warning` level.
    public var logger: Logger
    /// Told of every dropped snapshot, after it is logged.
    public var onDrop: (@Sendable (StoreSnapshotDrop) -> Void)?

    /// The `format` member of every snapshot file.
    public static let format = "statehub.snapshot"
    /// The `version` member this code writes and reads.
    public static let version = 1

    public init(
        url: URL,
        maximumBytes: Int = 8 << 20,
        logger: Logger = Logger(label: "statehub.snapshots"),
        onDrop: (@Sendable (StoreSnapshotDrop) -> Void)? = nil
    ) {
        self.url = url
        self.maximumBytes = maximumBytes
        self.logger = logger
        self.onDrop = onDrop
    }

    /// The file of `storeId`: every byte outside `[a-z0-9_-]` written `%XX`, so any id is one
    /// plain file name inside the folder (`.` and `..` included). Capitals are escaped too: on a
    /// case-insensitive disk (macOS, iOS) `Cart.json` and `cart.json` are one file, and a load of
    /// one store would drop, and delete, the other's snapshot.
    ///
    /// An escaped name longer than ``maximumEscapedNameBytes`` is cut there and followed by `~` and
    /// the SHA-256 of the whole id in hex: file systems refuse names past 255 bytes, and the
    /// temporary file of a save adds 41 more. `~` never appears in an escaped name, so a hashed
    /// name is never another id's plain one, and the `storeId` inside the file is checked on load.
    public func fileURL(of storeId: String) -> URL {
        url.appendingPathComponent(Self.fileName(of: storeId), isDirectory: false)
    }

    /// Escaped names up to this many bytes are used whole; longer ones are cut and hashed.
    public static let maximumEscapedNameBytes = 120

    static func fileName(of storeId: String) -> String {
        var name = ""
        for byte in storeId.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += String(format: "%%%02X", byte)
            }
            // Past the limit the rest is not needed: the hash names the id.
            if name.utf8.count > maximumEscapedNameBytes { break }
        }
        guard name.utf8.count > maximumEscapedNameBytes else { return name + ".json" }
        // The escaped name is ASCII, so a cut by bytes is a cut by characters.
        let kept = String(name.prefix(maximumEscapedNameBytes))
        let digest = SHA256.hash(data: Data(storeId.utf8)).map { String(format: "%02x", $0) }.joined()
        return kept + "~" + digest + ".json"
    }

    /// Whether a snapshot file exists for `storeId` (it may still be dropped when loaded).
    public func contains(_ storeId: String) -> Bool {
        FileManager.default.fileExists(atPath: fileURL(of: storeId).path)
    }

    /// Writes `state` as the snapshot of `storeId`: a temporary file in the folder, then a rename
    /// over the old one, so a reader never sees half a file.
    ///
    /// - Throws: ``StoreSnapshotSaveError`` naming the store, the file and why; the old snapshot,
    ///   if any, is left as it was.
    public func save(storeId: String, state: JSONValue, savedAt: Date = Date()) throws(StoreSnapshotSaveError) {
        let target = fileURL(of: storeId)
        func failed(_ reason: String) -> StoreSnapshotSaveError {
            StoreSnapshotSaveError(failures: [.init(storeId: storeId, path: target.path, reason: reason)])
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw failed("the folder \(url.path) could not be created: \(StoreSnapshotSaveError.reason(error))")
        }
        let document: JSONValue = .object([
            "format": .string(Self.format),
            "version": .number(Double(Self.version)),
            "storeId": .string(storeId),
            "savedAt": .string(ISO8601DateFormatter().string(from: savedAt)),
            "state": state,
        ])
        let temporary = url.appendingPathComponent(target.lastPathComponent + ".tmp-" + UUID().uuidString, isDirectory: false)
        do {
            try Data(document.jsonText().utf8).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failed(StoreSnapshotSaveError.reason(error))
        }
        // rename(2) replaces the target in one step on the same file system.
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw failed("renaming the written file over it failed: \(reason)")
        }
    }

    /// Writes every mirror of `hub`, one file per store; a store that fails does not stop the
    /// others.
    ///
    /// - Throws: ``StoreSnapshotSaveError`` listing every store that was not saved.
    public func save(from hub: GlobalStateHub) throws(StoreSnapshotSaveError) {
        var failures: [StoreSnapshotSaveError.Failure] = []
        for storeId in hub.storeIDs {
            guard let state = hub.state(of: storeId) else { continue }
            do {
                try save(storeId: storeId, state: state)
            } catch {
                failures += error.failures
            }
        }
        if !failures.isEmpty { throw StoreSnapshotSaveError(failures: failures) }
    }

    /// Deletes the snapshot of `storeId`, if any.
    public func remove(_ storeId: String) {
        try? FileManager.default.removeItem(at: fileURL(of: storeId))
    }
}
