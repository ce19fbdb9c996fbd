import Foundation

/// An app's release as the admin API takes it and the database keeps it (docs/server.md,
/// "Release model"): a stable version, up to two bucket arms (rollout or A/B) and explicit users.
public struct ReleaseSpec: Sendable, Hashable, Codable {
    /// One bucket range: the first arm gets buckets `[0, percent·100)`, the second the next range.
    public struct Arm: Sendable, Hashable, Codable {
        public var version: String
        public var percent: Double
        /// `"A"` / `"B"` for an experiment; reported in the manifest as `variant`.
        public var label: String?

        public init(version: String, percent: Double, label: String? = nil) {
            self.version = version
            self.percent = percent
            self.label = label
        }
    }

    public var stable: String
    public var arms: [Arm]
    /// User id → version; wins over arms and stable. Ids are kept in Unicode NFC (``UserID``).
    public var users: [String: String]

    public init(stable: String, arms: [Arm] = [], users: [String: String] = [:]) {
        self.stable = stable
        self.arms = arms
        self.users = users
    }

    enum CodingKeys: String, CodingKey { case stable, arms, users }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stable = try container.decode(String.self, forKey: .stable)
        arms = try container.decodeIfPresent([Arm].self, forKey: .arms) ?? []
        let written = try container.decodeIfPresent([String: String].self, forKey: .users) ?? [:]
        // Keys distinct as `String`s are distinct in NFC (`String` compares canonical equivalence);
        // the admin API refused a body whose keys were not (`AdminBodyShape.map`).
        users = Dictionary(written.map { ($0.key.precomposedStringWithCanonicalMapping, $0.value) }) { first, _ in first }
    }

    /// At most this many explicit users, so one release stays a small row.
    public static let maxUsers = 10_000

    /// Every problem of the release's shape (versions are checked against the uploads by the
    /// caller, who knows them). Empty when well formed.
    public func shapeProblems() -> [String] {
        var problems: [String] = []
        if VersionText.parse(stable) == nil { problems.append("stable: \"\(stable.prefix(80))\" is not a semantic version") }
        if arms.count > 2 { problems.append("arms: at most 2 (a rollout or an A/B pair), found \(arms.count)") }
        var total = 0.0
        for (index, arm) in arms.enumerated() {
            if VersionText.parse(arm.version) == nil { problems.append("arms[\(index)].version: not a semantic version") }
            if !arm.percent.isFinite || arm.percent < 0 || arm.percent > 100 {
                problems.append("arms[\(index)].percent: must lie in 0…100")
            } else {
                total += arm.percent
            }
        }
        if total > 100 { problems.append("arms: percentages add up to more than 100") }
        if users.count > Self.maxUsers { problems.append("users: at most \(Self.maxUsers)") }
        for (user, version) in users.sorted(by: { $0.key < $1.key }) {
            if UserID(user) == nil { problems.append("users: \"\(user.prefix(80))\" is not a valid user id") }
            if VersionText.parse(version) == nil { problems.append("users.\(user.prefix(80)): not a semantic version") }
        }
        return problems
    }

    /// Every version the release names.
    public var namedVersions: Set<String> {
        Set([stable] + arms.map(\.version) + users.values)
    }
}
