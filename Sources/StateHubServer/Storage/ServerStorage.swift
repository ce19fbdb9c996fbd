import Crypto
import Foundation
import Logging
import SQLKit

/// The server's state in one SQL database (docs/server.md, "Storage"): content-addressed
/// blobs, apps, versions, releases with their history, themes, admin token hashes, and the
/// generation number every write increments.
public final class ServerStorage: Sendable {
    let backend: any SQLBackend

    init(backend: any SQLBackend) { self.backend = backend }

    /// Opens (creating when needed) and migrates the database at `location`.
    public static func open(_ location: StorageLocation, logger: Logger) async throws -> ServerStorage {
        let backend: any SQLBackend = switch location {
        case .sqlite(let directory): try await SQLiteBackend.open(directory: directory, logger: logger)
        case .postgres(let url): try PostgresBackend.open(url: url, logger: logger)
        }
        do {
            try await Migrations.run(on: backend)
        } catch {
            await backend.shutdown()
            throw StorageError("cannot migrate \(location): \(String(reflecting: error))")
        }
        return ServerStorage(backend: backend)
    }

    /// Whether several instances may share this storage (only then must reads check freshness).
    public var isShared: Bool { backend.isPostgres }

    public func close() async { await backend.shutdown() }

    static func sha256Hex(_ bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static var now: Int { Int(Date().timeIntervalSince1970) }

    // MARK: Reads

    func generation() async throws -> Int {
        try await backend.read { db in
            guard let row = try await db.raw("SELECT value FROM generation WHERE id = 1").first() else {
                throw StorageError("the generation row is missing")
            }
            return try row.decode(column: "value", as: Int.self)
        }
    }

    /// Everything mutable. The generation is read first, so the rows are at least that new.
    func state() async throws -> StoredState {
        try await backend.read { db in
            guard let row = try await db.raw("SELECT value FROM generation WHERE id = 1").first() else {
                throw StorageError("the generation row is missing")
            }
            let generation = try row.decode(column: "value", as: Int.self)
            let apps = try await db.raw("""
                SELECT a.name, a.release_id, a.pinned_version, r.spec FROM apps a LEFT JOIN releases r ON r.id = a.release_id
                """).all().map { row in
                let spec = try row.decode(column: "spec", as: String?.self)
                return StoredApp(
                    name: try row.decode(column: "name", as: String.self),
                    releaseID: try row.decode(column: "release_id", as: Int?.self),
                    release: try spec.map { try JSONDecoder().decode(ReleaseSpec.self, from: Data($0.utf8)) },
                    pinnedVersion: try row.decode(column: "pinned_version", as: String?.self))
            }
            let versions = try await db.raw("""
                SELECT v.app, v.version, v.bundle_sha256, b.size AS bundle_size, v.stylesheet_sha256, s.size AS stylesheet_size,
                  v.min_native_version, v.signature_key_id, v.signature FROM app_versions v JOIN blobs b ON b.sha256 = v.bundle_sha256
                  LEFT JOIN blobs s ON s.sha256 = v.stylesheet_sha256
                """).all().map(Self.version(from:))
            let assets = try await db.raw("""
                SELECT a.app, a.version, a.path, a.sha256, b.size FROM app_version_assets a JOIN blobs b ON b.sha256 = a.sha256
                """).all()
            let versionsWithAssets = try Self.attach(assets, to: versions)
            let themes = try await db.raw("SELECT version, major, sha256, published FROM themes").all().map { row in
                StoredTheme(version: try row.decode(column: "version", as: String.self),
                            major: try row.decode(column: "major", as: Int.self),
                            sha256: try row.decode(column: "sha256", as: String.self),
                            published: try row.decode(column: "published", as: Int.self) != 0)
            }
            return StoredState(generation: generation, apps: apps, versions: versionsWithAssets, themes: themes)
        }
    }

    /// Puts each asset row on its version, sorted by path in byte order.
    private static func attach(_ rows: [any SQLRow], to versions: [StoredVersion]) throws -> [StoredVersion] {
        struct Key: Hashable { var app: String, version: String }
        var byVersion: [Key: [StoredAsset]] = [:]
        for row in rows {
            let key = Key(app: try row.decode(column: "app", as: String.self), version: try row.decode(column: "version", as: String.self))
            byVersion[key, default: []].append(StoredAsset(
                path: try row.decode(column: "path", as: String.self),
                ref: AssetRef(sha256: try row.decode(column: "sha256", as: String.self), size: try row.decode(column: "size", as: Int.self))))
        }
        return versions.map { version in
            var version = version
            let assets = (byVersion[Key(app: version.app, version: version.version)] ?? [])
                .sorted { Array($0.path.utf8).lexicographicallyPrecedes($1.path.utf8) }
            version.assets = assets
            version.assetsByPath = Dictionary(assets.map { ($0.path, $0.ref) }, uniquingKeysWith: { first, _ in first })
            return version
        }
    }

    private static func version(from row: any SQLRow) throws -> StoredVersion {
        let stylesheetHash = try row.decode(column: "stylesheet_sha256", as: String?.self)
        let stylesheetSize = try row.decode(column: "stylesheet_size", as: Int?.self)
        let signatureKeyID = try row.decode(column: "signature_key_id", as: String?.self)
        let signature = try row.decode(column: "signature", as: String?.self)
        return StoredVersion(
            app: try row.decode(column: "app", as: String.self),
            version: try row.decode(column: "version", as: String.self),
            bundle: AssetRef(sha256: try row.decode(column: "bundle_sha256", as: String.self),
                             size: try row.decode(column: "bundle_size", as: Int.self)),
            stylesheet: stylesheetHash.map { AssetRef(sha256: $0, size: stylesheetSize ?? 0) },
            minNativeVersion: try row.decode(column: "min_native_version", as: String.self),
            signature: signatureKeyID.flatMap { keyID in signature.map { VersionSignature(keyId: keyID, value: $0) } })
    }

    /// The bytes stored under `sha256`, or `nil`.
    func blob(_ sha256: String) async throws -> Data? {
        try await backend.read { db in
            try await db.raw("SELECT data FROM blobs WHERE sha256 = \(bind: sha256)").first()?.decode(column: "data", as: Data.self)
        }
    }

    // MARK: Writes (each increments the generation in its transaction)

    private static func bumpGeneration(_ db: any SQLDatabase) async throws {
        try await db.raw("UPDATE generation SET value = value + 1 WHERE id = 1").run()
        // Delivered to every instance's listener when the transaction commits, never before.
        if db.dialect.name == "postgresql" {
            try await db.raw("SELECT pg_notify(\(bind: Self.stateChannel), value::text) FROM generation WHERE id = 1").run()
        }
    }

    private static func putBlob(_ db: any SQLDatabase, _ data: Data) async throws -> AssetRef {
        let hash = sha256Hex(data)
        try await db.raw("""
            INSERT INTO blobs (sha256, size, data) VALUES (\(bind: hash), \(bind: data.count), \(bind: data)) ON CONFLICT (sha256) DO NOTHING
            """).run()
        return AssetRef(sha256: hash, size: data.count)
    }

    /// Makes concurrent transactions about `key` take turns on PostgreSQL (a transaction-scoped
    /// advisory lock on the key's hash, in a key space of its own beside the migrations' lock), so
    /// a check-then-insert sees the row another transaction just committed instead of failing on
    /// its unique key: the same answers SQLite gives, whose `BEGIN IMMEDIATE` already serialises
    /// writers. Two keys sharing a hash only wait for each other.
    static func lockKey(_ db: any SQLDatabase, _ key: String) async throws {
        guard db.dialect.name == "postgresql" else { return }
        try await db.raw("SELECT pg_advisory_xact_lock(\(bind: advisoryLockSpace), hashtext(\(bind: key)))").run()
    }

    /// The first key of the two-key advisory locks ``lockKey(_:_:)`` takes.
    static let advisoryLockSpace: Int32 = 727_275

    /// Stores a version with its assets (paths already checked by `AssetPath` and for
    /// collisions). Asset bytes are blobs, stored once however many versions ship them.
    func putVersion(app: String, version: String, bundle: Data, stylesheet: Data?, minNativeVersion: String,
                    assets: [UploadedAsset] = [], signature: VersionSignature? = nil, by author: AdminIdentity?) async throws -> UploadOutcome {
        let bundleHash = Self.sha256Hex(bundle)
        let stylesheetHash = stylesheet.map(Self.sha256Hex)
        let assetHashes = Set(assets.map { [$0.path, Self.sha256Hex($0.data)] })
        return try await backend.transaction { db in
            try await Self.lockKey(db, "version \(app) \(version)")
            if let existing = try await db.raw("""
                SELECT bundle_sha256, stylesheet_sha256, min_native_version, signature_key_id, signature FROM app_versions
                  WHERE app = \(bind: app) AND version = \(bind: version)
                """).first() {
                let storedAssets = Set(try await db.raw("""
                    SELECT path, sha256 FROM app_version_assets WHERE app = \(bind: app) AND version = \(bind: version)
                    """).all().map { row in
                    [try row.decode(column: "path", as: String.self), try row.decode(column: "sha256", as: String.self)]
                })
                let same = try existing.decode(column: "bundle_sha256", as: String.self) == bundleHash
                    && existing.decode(column: "stylesheet_sha256", as: String?.self) == stylesheetHash
                    && existing.decode(column: "min_native_version", as: String.self) == minNativeVersion
                    && storedAssets == assetHashes
                    // The signature is part of what was uploaded: adding or changing one is another upload.
                    && existing.decode(column: "signature_key_id", as: String?.self) == signature?.keyId
                    && existing.decode(column: "signature", as: String?.self) == signature?.value
                return same ? .unchanged : .conflict
            }
            _ = try await Self.putBlob(db, bundle)
            if let stylesheet { _ = try await Self.putBlob(db, stylesheet) }
            try await db.raw("INSERT INTO apps (name) VALUES (\(bind: app)) ON CONFLICT (name) DO NOTHING").run()
            try await db.raw("""
                INSERT INTO app_versions (app, version, bundle_sha256, stylesheet_sha256, min_native_version, created_at,
                  signature_key_id, signature)
                VALUES (\(bind: app), \(bind: version), \(bind: bundleHash), \(bind: stylesheetHash), \(bind: minNativeVersion), \(bind: Self.now),
                  \(bind: signature?.keyId), \(bind: signature?.value))
                """).run()
            for asset in assets {
                let ref = try await Self.putBlob(db, asset.data)
                try await db.raw("""
                    INSERT INTO app_version_assets (app, version, path, folded_path, sha256)
                    VALUES (\(bind: app), \(bind: version), \(bind: asset.path), \(bind: asset.folded), \(bind: ref.sha256))
                    """).run()
            }
            let size = bundle.count + (stylesheet?.count ?? 0) + assets.reduce(0) { $0 + $1.data.count }
            try await Self.audit(db, by: author, .versionUpload, "\(app) \(version)", before: nil,
                                 after: AuditState(sha256: bundleHash, size: size, minNativeVersion: minNativeVersion, assetCount: assets.count))
            try await Self.bumpGeneration(db)
            return .created
        }
    }

    /// Makes `spec` the app's release, remembering the one it replaces. `false` when the app is unknown.
    /// What saving or rolling back a release did: `id` is the release row now current.
    enum ReleaseWrite: Sendable, Equatable {
        case unknownApp
        /// The request's `If-Match` names another release than the current one (`currentID`).
        case stale(currentID: Int?)
        case nothingToRollBack
        case written(id: Int, spec: ReleaseSpec)
    }

    /// The app's row, locked for this transaction on PostgreSQL (SQLite's `BEGIN IMMEDIATE` holds
    /// the write lock already): two saves at once on two instances see each other's release, so an
    /// `If-Match` check and the row's predecessor are never read stale.
    private static func lockedReleaseID(_ db: any SQLDatabase, app: String) async throws -> Int?? {
        let lock = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
        guard let row = try await db.raw("SELECT release_id FROM apps WHERE name = \(bind: app)\(unsafeRaw: lock)").first() else { return nil }
        return .some(try row.decode(column: "release_id", as: Int?.self))
    }

    /// Saves `spec` as the app's release, unless `ifMatch` (the request's `If-Match`) names
    /// another release than the current one: checked in the transaction of the write.
    func setRelease(app: String, spec: ReleaseSpec, ifMatch: String? = nil, by author: AdminIdentity?) async throws -> ReleaseWrite {
        let json = String(decoding: try JSONEncoder.sorted.encode(spec), as: UTF8.self)
        return try await backend.transaction { db in
            guard let previous = try await Self.lockedReleaseID(db, app: app) else { return .unknownApp }
            guard ReleaseTag.satisfies(ifMatch, currentID: previous) else { return .stale(currentID: previous) }
            let before = try await Self.releaseSpec(db, id: previous)
            let id = try await Self.insertRelease(db, app: app, json: json, previous: previous)
            let sides = AuditState.releaseChange(from: before, to: spec)
            try await Self.audit(db, by: author, .releaseSet, app, before: sides.before, after: sides.after)
            try await Self.bumpGeneration(db)
            return .written(id: id, spec: spec)
        }
    }

    @discardableResult
    private static func insertRelease(_ db: any SQLDatabase, app: String, json: String, previous: Int?) async throws -> Int {
        guard let row = try await db.raw("""
            INSERT INTO releases (app, spec, previous_id, created_at) VALUES (\(bind: app), \(bind: json), \(bind: previous), \(bind: now)) RETURNING id
            """).first() else { throw StorageError("inserting a release returned no id") }
        let id = try row.decode(column: "id", as: Int.self)
        try await db.raw("UPDATE apps SET release_id = \(bind: id) WHERE name = \(bind: app)").run()
        return id
    }

    /// The stored release with that id (`nil` for no id).
    private static func releaseSpec(_ db: any SQLDatabase, id: Int?) async throws -> ReleaseSpec? {
        guard let id, let row = try await db.raw("SELECT spec FROM releases WHERE id = \(bind: id)").first() else { return nil }
        return try JSONDecoder().decode(ReleaseSpec.self, from: Data(try row.decode(column: "spec", as: String.self).utf8))
    }

    /// The previous release becomes current again (as a new row whose predecessor is the previous
    /// one's), unless `ifMatch` names another release than the current one.
    func rollback(app: String, ifMatch: String? = nil, by author: AdminIdentity?) async throws -> ReleaseWrite {
        try await backend.transaction { db in
            guard let locked = try await Self.lockedReleaseID(db, app: app) else { return .unknownApp }
            guard ReleaseTag.satisfies(ifMatch, currentID: locked) else { return .stale(currentID: locked) }
            guard let currentID = locked,
                  let current = try await db.raw("SELECT previous_id FROM releases WHERE id = \(bind: currentID)").first(),
                  let previousID = try current.decode(column: "previous_id", as: Int?.self),
                  let previous = try await db.raw("SELECT spec, previous_id FROM releases WHERE id = \(bind: previousID)").first()
            else { return .nothingToRollBack }
            let json = try previous.decode(column: "spec", as: String.self)
            let restored = try JSONDecoder().decode(ReleaseSpec.self, from: Data(json.utf8))
            let before = try await Self.releaseSpec(db, id: currentID)
            let id = try await Self.insertRelease(db, app: app, json: json, previous: try previous.decode(column: "previous_id", as: Int?.self))
            let sides = AuditState.releaseChange(from: before, to: restored)
            try await Self.audit(db, by: author, .releaseRollback, app, before: sides.before, after: sides.after)
            try await Self.bumpGeneration(db)
            return .written(id: id, spec: restored)
        }
    }

    /// Pins (or with `nil` unpins) the app. `false` when the app is unknown.
    func setPin(app: String, version: String?, by author: AdminIdentity?) async throws -> Bool {
        try await backend.transaction { db in
            guard let row = try await db.raw("SELECT pinned_version FROM apps WHERE name = \(bind: app)").first() else { return false }
            let before = try row.decode(column: "pinned_version", as: String?.self)
            try await db.raw("UPDATE apps SET pinned_version = \(bind: version) WHERE name = \(bind: app)").run()
            if before != version {  // pinning to the pinned version, or lifting no pin, changes nothing: no row
                try await Self.audit(db, by: author, version == nil ? .pinLift : .pinSet, app,
                                     before: AuditState(pinnedVersion: before), after: AuditState(pinnedVersion: version))
            }
            try await Self.bumpGeneration(db)
            return true
        }
    }

    func putTheme(version: String, major: Int, data: Data, by author: AdminIdentity?) async throws -> UploadOutcome {
        let hash = Self.sha256Hex(data)
        return try await backend.transaction { db in
            try await Self.lockKey(db, "theme \(version)")
            if let existing = try await db.raw("SELECT sha256 FROM themes WHERE version = \(bind: version)").first() {
                return try existing.decode(column: "sha256", as: String.self) == hash ? .unchanged : .conflict
            }
            _ = try await Self.putBlob(db, data)
            try await db.raw("""
                INSERT INTO themes (version, major, sha256, published, created_at) VALUES (\(bind: version), \(bind: major), \(bind: hash), 0, \(bind: Self.now))
                """).run()
            try await Self.audit(db, by: author, .themeUpload, version, before: nil,
                                 after: AuditState(published: false, sha256: hash, size: data.count))
            try await Self.bumpGeneration(db)
            return .created
        }
    }

    enum ThemePublishOutcome: Sendable, Equatable {
        case unknownTheme
        /// Unpublishing the only published theme of its major version would leave shells of that
        /// major with no theme (`/themes/current` 404): refused, nothing changed.
        case lastPublished(major: Int)
        /// Done; `current` is the version `/themes/current` answers for the major afterwards.
        case done(current: String?)
    }

    /// Publishes or unpublishes a theme; an unpublish that would leave its major with no
    /// published theme is refused. The major's rows are locked first (`FOR UPDATE` on PostgreSQL;
    /// SQLite's `BEGIN IMMEDIATE` already holds the write lock), so two unpublishes at once cannot
    /// each see the other's theme still published (in one order, by version, so two never deadlock).
    func setThemePublished(version: String, _ published: Bool, by author: AdminIdentity?) async throws -> ThemePublishOutcome {
        try await backend.transaction { db in
            guard let theme = try await db.raw("SELECT major, published FROM themes WHERE version = \(bind: version)").first() else {
                return .unknownTheme
            }
            let major = try theme.decode(column: "major", as: Int.self)
            let lock = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            var states: [String: Bool] = [:]
            for row in try await db.raw("SELECT version, published FROM themes WHERE major = \(bind: major) ORDER BY version\(unsafeRaw: lock)").all() {
                states[try row.decode(column: "version", as: String.self)] = try row.decode(column: "published", as: Int.self) != 0
            }
            let was = states[version] ?? false
            let before = Self.currentTheme(states)
            states[version] = published
            let after = Self.currentTheme(states)
            if was == published { return .done(current: after) }
            if !published && after == nil { return .lastPublished(major: major) }
            try await db.raw("UPDATE themes SET published = \(bind: published ? 1 : 0) WHERE version = \(bind: version)").run()
            try await Self.audit(db, by: author, published ? .themePublish : .themeUnpublish, version,
                                 before: AuditState(published: was, current: before), after: AuditState(published: published, current: after))
            try await Self.bumpGeneration(db)
            return .done(current: after)
        }
    }

    /// The newest published version among `states` (version → published), as `ServerSnapshot` chooses it.
    private static func currentTheme(_ states: [String: Bool]) -> String? {
        states.compactMap { version, published in published ? VersionText.parse(version).map { ($0, version) } : nil }
            .max { $0.0 < $1.0 }?.1
    }

    // MARK: Admin tokens (only their SHA-256 is stored)

    func hasToken(hash: String) async throws -> Bool {
        try await backend.read { db in
            try await db.raw("SELECT id FROM admin_tokens WHERE sha256 = \(bind: hash)").first() != nil
        }
    }

    /// Stores `hash` unless it is there; returns its id.
    @discardableResult
    func addToken(hash: String, label: String, by author: AdminIdentity?) async throws -> Int {
        try await backend.transaction { db in
            if let row = try await db.raw("SELECT id FROM admin_tokens WHERE sha256 = \(bind: hash)").first() {
                return try row.decode(column: "id", as: Int.self)
            }
            guard let row = try await db.raw("""
                INSERT INTO admin_tokens (sha256, label, created_at) VALUES (\(bind: hash), \(bind: label), \(bind: Self.now)) RETURNING id
                """).first() else { throw StorageError("inserting a token returned no id") }
            let id = try row.decode(column: "id", as: Int.self)
            try await Self.audit(db, by: author, .tokenCreate, String(id), before: nil, after: AuditState(label: label))
            return id
        }
    }

    /// What installing the first admin token at start did.
    enum TokenInstallation: Sendable, Equatable {
        case installed
        case alreadyInstalled
        /// The token was deleted with `DELETE /admin/tokens/{id}` before: it stays revoked.
        case revoked
    }

    /// Installs the token of `STATEHUB_ADMIN_TOKEN` / `--admin-token-file` (no request, no audit
    /// row), unless it was revoked: a restart must not bring back a token an admin deleted.
    func installToken(hash: String, label: String) async throws -> TokenInstallation {
        try await backend.transaction { db in
            try await Self.lockKey(db, "admin token \(hash)")
            if try await db.raw("SELECT sha256 FROM revoked_admin_tokens WHERE sha256 = \(bind: hash)").first() != nil { return .revoked }
            if try await db.raw("SELECT id FROM admin_tokens WHERE sha256 = \(bind: hash)").first() != nil { return .alreadyInstalled }
            try await db.raw("""
                INSERT INTO admin_tokens (sha256, label, created_at) VALUES (\(bind: hash), \(bind: label), \(bind: Self.now))
                """).run()
            return .installed
        }
    }

    func deleteToken(id: Int, by author: AdminIdentity?) async throws -> Bool {
        try await backend.transaction { db in
            guard let row = try await db.raw("SELECT label, sha256 FROM admin_tokens WHERE id = \(bind: id)").first() else { return false }
            try await db.raw("DELETE FROM admin_tokens WHERE id = \(bind: id)").run()
            // Remembered, so the first token, installed again at every start, stays revoked.
            try await db.raw("""
                INSERT INTO revoked_admin_tokens (sha256, revoked_at) VALUES (\(bind: try row.decode(column: "sha256", as: String.self)), \(bind: Self.now))
                ON CONFLICT (sha256) DO NOTHING
                """).run()
            try await Self.audit(db, by: author, .tokenDelete, String(id),
                                 before: AuditState(label: try row.decode(column: "label", as: String.self)), after: nil)
            return true
        }
    }
}

extension JSONEncoder {
    /// Sorted keys: the same release is stored as the same text.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
