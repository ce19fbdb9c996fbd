/// A semantic version, `MAJOR.MINOR.PATCH[-prerelease][+build]` (semver.org 2.0.0).
///
/// Ordering follows semver precedence, except that build metadata (ignored by precedence)
/// breaks ties so that `Comparable` agrees with `Equatable`.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int
    /// Dot-separated pre-release identifiers (`["beta", "2"]` for `-beta.2`).
    public let prerelease: [String]
    /// Dot-separated build identifiers (ignored by precedence).
    public let build: [String]

    public init(major: Int, minor: Int, patch: Int, prerelease: [String] = [], build: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = prerelease
        self.build = build
    }

    /// Parses a version string strictly (no `v` prefix, no leading zeros).
    public init(parsing text: String) throws(SemanticVersionError) {
        var rest = Substring(text)
        var build: [String] = []
        if let plus = rest.firstIndex(of: "+") {
            build = try Self.identifiers(rest[rest.index(after: plus)...], numeric: false)
            rest = rest[..<plus]
        }
        var prerelease: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            prerelease = try Self.identifiers(rest[rest.index(after: dash)...], numeric: true)
            rest = rest[..<dash]
        }
        let core = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3 else { throw .notThreeNumbers }
        var numbers: [Int] = []
        for part in core {
            guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), let number = Int(part),
                  part == "0" || !part.hasPrefix("0")
            else { throw part.isEmpty ? .notThreeNumbers : .invalidNumber(String(part)) }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2], prerelease: prerelease, build: build)
    }

    private static func identifiers(_ text: Substring, numeric: Bool) throws(SemanticVersionError) -> [String] {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }) else {
                throw .invalidIdentifier(String(part))
            }
            // Numeric pre-release identifiers must not have leading zeros; build metadata may.
            if numeric, part.allSatisfy(\.isASCIIDigit), part.count > 1, part.hasPrefix("0") {
                throw .invalidIdentifier(String(part))
            }
        }
        return parts.map(String.init)
    }

    public var description: String {
        var text = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty { text += "-" + prerelease.joined(separator: ".") }
        if !build.isEmpty { text += "+" + build.joined(separator: ".") }
        return text
    }

    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if (lhs.major, lhs.minor, lhs.patch) != (rhs.major, rhs.minor, rhs.patch) {
            return (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
        if lhs.prerelease != rhs.prerelease {
            // A version without pre-release ranks above any pre-release of it.
            if lhs.prerelease.isEmpty { return false }
            if rhs.prerelease.isEmpty { return true }
            for (left, right) in zip(lhs.prerelease, rhs.prerelease) where left != right {
                switch (Int(left), Int(right)) {
                case let (l?, r?): return l < r
                case (_?, nil): return true
                case (nil, _?): return false
                case (nil, nil): return left < right
                }
            }
            return lhs.prerelease.count < rhs.prerelease.count
        }
        return lhs.build.lexicographicallyPrecedes(rhs.build)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetter: Bool { isASCII && isLetter }
}
