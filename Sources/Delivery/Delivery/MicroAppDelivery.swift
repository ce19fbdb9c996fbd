import Foundation
import MicroAppAssets
import StyleTokens
import Trace

/// Brings micro-apps from a StateHub server onto the device and keeps them usable offline
/// (docs/server.md, "Delivery"): fetch the manifest for a user, download and verify the
/// bundle, stylesheet and assets, install them atomically in a versioned folder, keep the last `keep` versions, and fall
/// back to the last good version — saying why — when the network, the bytes or the bundle fail.
public actor MicroAppDelivery {
    public struct Configuration: Sendable {
        /// The server, e.g. `http://127.0.0.1:8080`.
        public var server: URL
        /// The folder Delivery owns.
        public var root: URL
        /// The shell's version, sent as `nativeVersion`.
        public var nativeVersion: String
        /// Installed versions kept per app (the last good one is always kept).
        public var keep: Int
        /// Which versions may run: those signed by the app's shipped keys, or, named
        /// explicitly, unsigned ones too (docs/server.md, "Signed releases").
        public var releaseTrust: ReleaseTrust
        /// The most bytes of a manifest read (default 1 MiB, ``defaultManifestLimit``); a longer
        /// one is ``DeliveryProblem/oversizedManifest(limit:)``.
        public var manifestLimit: Int
        /// The most bytes a version's files (bundle, stylesheet, assets) may add up to, by the
        /// manifest's sizes (default 64 MiB, ``defaultVersionLimit``): downloads are held in memory
        /// until the version is installed whole, and an unsigned manifest's sizes are the server's
        /// word alone. A larger version is ``DeliveryProblem/oversizedVersion(version:size:limit:)``.
        public var versionLimit: Int

        /// 1 MiB: over five times the largest manifest the server's default caps allow (256
        /// assets whose paths and URLs are as long as "Names and values" lets them be).
        public static let defaultManifestLimit = 1 << 20
        /// 64 MiB: twice the server's default cap on a whole version upload (`maxUploadBytes`).
        public static let defaultVersionLimit = 64 << 20

        public init(server: URL, root: URL, nativeVersion: String, keep: Int = 3, releaseTrust: ReleaseTrust,
                    manifestLimit: Int = defaultManifestLimit, versionLimit: Int = defaultVersionLimit) {
            self.server = server
            self.root = root
            self.nativeVersion = nativeVersion
            self.keep = max(1, keep)
            self.releaseTrust = releaseTrust
            self.manifestLimit = max(0, manifestLimit)
            self.versionLimit = max(0, versionLimit)
        }
    }

    public let configuration: Configuration
    let http: any HTTPClient
    private let trace: TraceRecorder?
    private let onStatus: @Sendable (String, DeliveryStatus) -> Void
    let disk: DeliveryDisk
    private var statuses: [String: DeliveryStatus] = [:]

    public init(configuration: Configuration, http: any HTTPClient = URLSessionHTTPClient(), trace: TraceRecorder? = nil,
                onStatus: @escaping @Sendable (String, DeliveryStatus) -> Void = { _, _ in }) {
        self.configuration = configuration
        self.http = http
        self.trace = trace
        self.onStatus = onStatus
        disk = DeliveryDisk(root: configuration.root)
    }

    /// The last status of `app`, if it was loaded.
    public func status(of app: String) -> DeliveryStatus? { statuses[app] }

    /// Picks the version for `user`, puts it on disk and hands it to `loader` (which loads it
    /// into an engine). When the loader throws, the version is marked failed and the last good
    /// one is handed over instead. Throws only when nothing can be loaded.
    public func load(app: String, user: String,
                     loader: @Sendable (DeliveredApp) async throws -> Void) async throws(DeliveryError) -> DeliveredApp {
        guard Self.isValidAppName(app) else { throw DeliveryError(app: app, problems: [.invalidManifest("invalid app name \(app)")]) }
        var problems: [DeliveryProblem] = []
        var candidate = try await prepare(app: app, user: user, problems: &problems)
        while true {
            do {
                try await loader(candidate)
                var state = disk.readState(app)
                state.lastGood = candidate.version
                state.lastGoodManifest = candidate.manifest
                try? disk.writeState(app, state)
                publish(app, candidate.status)
                return candidate
            } catch {
                let problem = DeliveryProblem.loadFailed(version: candidate.version, reason: "\(error)")
                problems.append(problem)
                var state = disk.readState(app)
                if !state.failed.contains(candidate.version) { state.failed.append(candidate.version) }
                if state.lastGood == candidate.version {
                    state.lastGood = nil
                    state.lastGoodManifest = nil
                }
                try? disk.writeState(app, state)
                guard let fallback = lastGood(app, status: { .fallback(version: $0, reason: problem) }) else {
                    publishFailure(app, problems)
                    throw DeliveryError(app: app, problems: problems)
                }
                candidate = fallback
            }
        }
    }

    // MARK: Choosing and installing

    private func prepare(app: String, user: String, problems: inout [DeliveryProblem]) async throws(DeliveryError) -> DeliveredApp {
        let manifest: Manifest
        switch await fetchManifest(app: app, user: user) {
        case .success(let fetched):
            manifest = fetched
        case .failure(let problem):
            problems.append(problem)
            let offline: Bool = if case .unreachable = problem { true } else { false }
            if let cached = lastGood(app, status: { offline ? .offline(version: $0, reason: problem) : .fallback(version: $0, reason: problem) }) {
                return cached
            }
            publishFailure(app, problems)
            throw DeliveryError(app: app, problems: problems)
        }
        // Before a byte is downloaded: the files are then checked against the hashes this covers.
        if let problem = runProblem(with: manifest) {
            problems.append(problem)
            if let cached = lastGood(app, status: { .fallback(version: $0, reason: problem) }) { return cached }
            publishFailure(app, problems)
            throw DeliveryError(app: app, problems: problems)
        }
        var state = disk.readState(app)
        state.cachedManifest = manifest
        try? disk.writeState(app, state)
        if state.failed.contains(manifest.version) {
            let problem = DeliveryProblem.previouslyFailed(version: manifest.version)
            problems.append(problem)
            if let cached = lastGood(app, status: { .fallback(version: $0, reason: problem) }) { return cached }
            publishFailure(app, problems)
            throw DeliveryError(app: app, problems: problems)
        }
        if disk.isIntact(manifest) { return disk.delivered(manifest, status: .fresh(version: manifest.version)) }
        do throws(DeliveryProblem) {
            try disk.install(manifest, files: try await fetchFiles(of: manifest, installed: installedManifests(state)))
            var state = disk.readState(app)
            state.installed.removeAll { $0 == manifest.version }
            state.installed.append(manifest.version)
            state.installedManifests = installedManifests(state).merging([manifest.version: manifest]) { _, new in new }
            prune(app, &state, keeping: manifest.version)
            try disk.writeState(app, state)
            return disk.delivered(manifest, status: .fresh(version: manifest.version))
        } catch {
            problems.append(error)
            let offline: Bool = if case .unreachable = error { true } else { false }
            if let cached = lastGood(app, status: { offline ? .offline(version: $0, reason: error) : .fallback(version: $0, reason: error) }) {
                return cached
            }
            publishFailure(app, problems)
            throw DeliveryError(app: app, problems: problems)
        }
    }

    private func fetchManifest(app: String, user: String) async -> Result<Manifest, DeliveryProblem> {
        var components = URLComponents(url: configuration.server.appendingPathComponent("apps/\(app)/manifest"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "user", value: user), URLQueryItem(name: "nativeVersion", value: configuration.nativeVersion)]
        guard let url = components?.url else { return .failure(.invalidManifest("cannot form the manifest URL")) }
        let response: HTTPClientResponse
        do {
            response = try await http.get(url, headers: ["Accept": "application/json"], bodyLimit: configuration.manifestLimit)
        } catch {
            return .failure(.unreachable(error.description))
        }
        guard response.status == 200 else {
            return .failure(.serverError(status: response.status, body: String(decoding: response.body.prefix(512), as: UTF8.self)))
        }
        guard response.body.count <= configuration.manifestLimit else { return .failure(.oversizedManifest(limit: configuration.manifestLimit)) }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: response.body)
        } catch {
            return .failure(.invalidManifest("\(error)"))
        }
        // Nothing from the network names a folder unless it is a checked name and version.
        guard manifest.app == app, (try? SemanticVersion(parsing: manifest.version)) != nil, manifest.version.utf8.count <= 64,
              manifest.bundle.size >= 0, manifest.bundle.sha256.utf8.count == 64
        else { return .failure(.invalidManifest("app \(manifest.app), version \(manifest.version.prefix(80))")) }
        if let stylesheet = manifest.stylesheet, stylesheet.size < 0 || stylesheet.sha256.utf8.count != 64 {
            return .failure(.invalidManifest("stylesheet: size \(stylesheet.size), sha256 \(stylesheet.sha256.prefix(80))"))
        }
        // The same rules the server applies on upload (MicroAppAssets), before any path names a file.
        var paths: [AssetPath] = []
        for asset in manifest.assets {
            do {
                paths.append(try AssetPath(asset.path))
            } catch {
                return .failure(.invalidManifest("asset \(asset.path.prefix(80).debugDescription): \(error)"))
            }
            guard asset.size >= 0, asset.sha256.utf8.count == 64 else {
                return .failure(.invalidManifest("asset \(asset.path): size \(asset.size), sha256 \(asset.sha256.prefix(80))"))
            }
        }
        if let collision = AssetPath.collisions(in: paths).first {
            return .failure(.invalidManifest("assets: \(collision)"))
        }
        let sizes = [manifest.bundle.size, manifest.stylesheet?.size ?? 0] + manifest.assets.map(\.size)
        let total = sizes.reduce(0) { sum, size in
            let (added, overflow) = sum.addingReportingOverflow(size)
            return overflow ? .max : added
        }
        guard total <= configuration.versionLimit else {
            return .failure(.oversizedVersion(version: manifest.version, size: total, limit: configuration.versionLimit))
        }
        return .success(manifest)
    }

    /// Removes the oldest installed versions beyond `keep`, never the last good one or `current`.
    private func prune(_ app: String, _ state: inout AppDiskState, keeping current: String) {
        var excess = state.installed.count - configuration.keep
        for version in state.installed where excess > 0 && version != current && version != state.lastGood {
            disk.remove(app, version)
            state.installed.removeAll { $0 == version }
            state.installedManifests?[version] = nil
            excess -= 1
        }
    }

    private func lastGood(_ app: String, status: (String) -> DeliveryStatus) -> DeliveredApp? {
        let state = disk.readState(app)
        // Checked again: the app may ship other keys, or be another shell version, than when the version was installed.
        guard let manifest = state.lastGoodManifest, state.lastGood == manifest.version,
              runProblem(with: manifest) == nil, disk.isIntact(manifest) else { return nil }
        return disk.delivered(manifest, status: status(manifest.version))
    }

    /// Why this shell may not run `manifest`: its signature (``ReleaseTrust``), then its signed
    /// `minNativeVersion` against ``Configuration/nativeVersion`` — a server or network path
    /// could otherwise hand an old shell a signed version made for a newer one.
    private func runProblem(with manifest: Manifest) -> DeliveryProblem? {
        if let problem = configuration.releaseTrust.problem(with: manifest) { return problem }
        guard let native = try? SemanticVersion(parsing: configuration.nativeVersion) else { return nil }
        guard let minimum = try? SemanticVersion(parsing: manifest.minNativeVersion) else {
            return .invalidManifest("minNativeVersion \(manifest.minNativeVersion.prefix(80).debugDescription) is not a semantic version")
        }
        guard native < minimum else { return nil }
        return .requiresNewerNative(version: manifest.version, minNativeVersion: manifest.minNativeVersion,
                                    nativeVersion: configuration.nativeVersion)
    }

    // MARK: Reporting

    private func publish(_ app: String, _ status: DeliveryStatus) {
        statuses[app] = status
        onStatus(app, status)
        let (kind, reason): (String, String?) = switch status {
        case .fresh: ("fresh", nil)
        case .offline(_, let reason): ("offline", reason.description)
        case .fallback(_, let reason): ("fallback", reason.description)
        }
        record(app, ["app": app, "version": status.version, "status": kind, "reason": reason])
    }

    private func publishFailure(_ app: String, _ problems: [DeliveryProblem]) {
        record(app, ["app": app, "version": nil, "status": "failed", "reason": problems.map(\.description).joined(separator: "; ")])
    }

    private func record(_ app: String, _ fields: [String: String?]) {
        guard let trace else { return }
        let object = fields.compactMapValues { $0 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let message = (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        trace.record(.nativeToWeb, channel: "delivery", engine: app, type: "delivery_status", message: message)
    }

    static func isValidAppName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isLowerAlnum(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        guard (1...64).contains(bytes.count), isLowerAlnum(bytes[0]) else { return false }
        return bytes.dropFirst().allSatisfy { isLowerAlnum($0) || $0 == 0x2D }
    }
}
