import StyleTokens

/// Picks the version one user gets (docs/server.md, "Release model"): pin → explicit user →
/// arms by bucket → stable; then the native check. Pure, O(versions) at worst (the native
/// fallback scans the uploaded versions newest first).
public enum ReleaseResolver {
    /// What an uploaded version needs from the shell.
    public struct Candidate: Sendable, Hashable {
        public var version: SemanticVersion
        public var minNativeVersion: SemanticVersion

        public init(version: SemanticVersion, minNativeVersion: SemanticVersion) {
            self.version = version
            self.minNativeVersion = minNativeVersion
        }
    }

    public enum Failure: Error, Sendable, Hashable {
        /// The release or pin names a version that is not uploaded (kept out by the admin API).
        case unknownVersion(String)
        /// No uploaded version at or below the chosen one runs in this shell.
        case noCompatibleVersion(chosen: String)
    }

    /// - Parameters:
    ///   - candidates: every uploaded version, keyed by its text, and the same sorted ascending.
    public static func resolve(app: String, user: String, nativeVersion: SemanticVersion?,
                               release: ReleaseSpec, pinned: String?,
                               candidates: [String: Candidate], ascending: [(text: String, candidate: Candidate)])
    -> Result<ManifestChoice, Failure> {
        let bucket = Bucket.of(app: app, user: user)
        var choice = ManifestChoice(version: release.stable, reason: .stable, variant: nil, bucket: bucket)
        if let pinned {
            choice.version = pinned
            choice.reason = .pinned
        } else if let version = release.users[user] {
            choice.version = version
            choice.reason = .user
        } else {
            var lower = 0
            for arm in release.arms {
                let upper = lower + Int((arm.percent * 100).rounded())
                if bucket >= lower && bucket < upper {
                    choice.version = arm.version
                    choice.reason = arm.label == nil ? .rollout : .variant
                    choice.variant = arm.label
                    break
                }
                lower = upper
            }
        }
        guard let chosen = candidates[choice.version] else { return .failure(.unknownVersion(choice.version)) }
        guard let nativeVersion, nativeVersion < chosen.minNativeVersion else { return .success(choice) }
        for entry in ascending.reversed() where entry.candidate.version < chosen.version
            && !(nativeVersion < entry.candidate.minNativeVersion) {
            choice.version = entry.text
            choice.reason = .nativeFallback
            choice.variant = nil
            return .success(choice)
        }
        return .failure(.noCompatibleVersion(chosen: choice.version))
    }
}
