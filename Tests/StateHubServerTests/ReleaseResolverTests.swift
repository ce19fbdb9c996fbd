import StateHubServer
import StyleTokens
import Testing

@Suite(.tags(.unit)) struct ReleaseResolverTests {
    @Test func bucketMatchesTheDocumentedHash() {
        // docs/server.md: int.from_bytes(sha256(b"cart:alice").digest()[:4], "big") % 10000
        #expect(Bucket.of(app: "cart", user: "alice") == 4911)
        #expect(Bucket.of(app: "cart", user: "alice") == Bucket.of(app: "cart", user: "alice"))
        #expect(Bucket.of(app: "cart", user: "alice") != Bucket.of(app: "profile", user: "alice"))
    }

    private func candidates(_ pairs: [(String, String)]) -> ([String: ReleaseResolver.Candidate], [(text: String, candidate: ReleaseResolver.Candidate)]) {
        var map: [String: ReleaseResolver.Candidate] = [:]
        for (version, minimum) in pairs {
            map[version] = .init(version: try! SemanticVersion(parsing: version), minNativeVersion: try! SemanticVersion(parsing: minimum))
        }
        let ascending = map.map { (text: $0.key, candidate: $0.value) }.sorted { $0.candidate.version < $1.candidate.version }
        return (map, ascending)
    }

    private func resolve(_ release: ReleaseSpec, user: String, native: String? = nil, pinned: String? = nil) -> Result<ManifestChoice, ReleaseResolver.Failure> {
        let (map, ascending) = candidates([("1.0.0", "1.0.0"), ("1.1.0", "1.0.0"), ("1.2.0", "2.0.0"), ("2.0.0", "3.0.0")])
        return ReleaseResolver.resolve(app: "cart", user: user, nativeVersion: native.map { try! SemanticVersion(parsing: $0) },
                                       release: release, pinned: pinned, candidates: map, ascending: ascending)
    }

    @Test func rolloutGivesTheArmToItsBucketsAndStableToTheRest() throws {
        let release = ReleaseSpec(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 25)])
        for index in 0..<400 {
            let user = "u\(index)"
            let choice = try resolve(release, user: user).get()
            let inRollout = Bucket.of(app: "cart", user: user) < 2500
            #expect(choice.version == (inRollout ? "1.1.0" : "1.0.0"))
            #expect(choice.reason == (inRollout ? .rollout : .stable))
        }
    }

    @Test func abSplitsBucketsBetweenLabelledArms() throws {
        let release = ReleaseSpec(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 50, label: "A"),
                                                          .init(version: "1.2.0", percent: 50, label: "B")])
        let a = Fixtures.user(in: 0..<5000, app: "cart")
        let b = Fixtures.user(in: 5000..<10000, app: "cart")
        #expect(try resolve(release, user: a).get() == ManifestChoice(version: "1.1.0", reason: .variant, variant: "A", bucket: Bucket.of(app: "cart", user: a)))
        #expect(try resolve(release, user: b, native: "2.0.0").get().variant == "B")
    }

    @Test func explicitUsersWinAndPinWinsOverThem() throws {
        let release = ReleaseSpec(stable: "1.0.0", arms: [.init(version: "1.1.0", percent: 100)], users: ["qa": "1.2.0"])
        #expect(try resolve(release, user: "qa", native: "2.0.0").get().reason == .user)
        #expect(try resolve(release, user: "qa", native: "2.0.0").get().version == "1.2.0")
        let pinned = try resolve(release, user: "qa", native: "2.0.0", pinned: "1.0.0").get()
        #expect(pinned.version == "1.0.0" && pinned.reason == .pinned)
    }

    @Test func anOldShellGetsTheNewestOlderVersionItSupports() throws {
        let release = ReleaseSpec(stable: "2.0.0")
        let choice = try resolve(release, user: "x", native: "2.5.0").get()
        #expect(choice.version == "1.2.0" && choice.reason == .nativeFallback)
        #expect(try resolve(release, user: "x", native: "1.0.0").get().version == "1.1.0")
        #expect(try resolve(release, user: "x").get().version == "2.0.0")
        #expect(throws: ReleaseResolver.Failure.noCompatibleVersion(chosen: "2.0.0")) {
            try resolve(release, user: "x", native: "0.9.0").get()
        }
    }

    @Test func shapeProblemsListEveryMistake() {
        let release = ReleaseSpec(stable: "1.0", arms: [.init(version: "1.1.0", percent: 80), .init(version: "x", percent: 30)],
                                  users: ["": "1.0.0"])
        #expect(release.shapeProblems() == [
            "stable: \"1.0\" is not a semantic version",
            "arms[1].version: not a semantic version",
            "arms: percentages add up to more than 100",
            "users: \"\" is not a valid user id",
        ])
    }
}
