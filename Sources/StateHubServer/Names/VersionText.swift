import StyleTokens

/// Parses a version from outside (a URL, a body): at most 64 characters, then strict semver.
enum VersionText {
    static let maxLength = 64

    static func parse(_ text: some StringProtocol) -> SemanticVersion? {
        guard text.utf8.count <= maxLength else { return nil }
        if let plain = plain(text.utf8) { return plain }
        return try? SemanticVersion(parsing: String(text))
    }

    /// `MAJOR.MINOR.PATCH` of ASCII digits only, read from the bytes: the manifest parses a
    /// native version per request, and `SemanticVersion(parsing:)` walks characters. The same
    /// rules (three numbers, no leading zero, within `Int`); `nil` hands anything else, valid
    /// or not, to the full parser.
    static func plain(_ bytes: some Collection<UInt8>) -> SemanticVersion? {
        var numbers = (0, 0, 0)
        var part = 0, digits = 0, value = 0, leadingZero = false
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, !(leadingZero && digits > 1), part < 2 else { return nil }
                if part == 0 { numbers.0 = value } else { numbers.1 = value }
                part += 1
                digits = 0
                value = 0
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            if digits == 0 { leadingZero = byte == UInt8(ascii: "0") }
            // 18 digits always fit an Int; longer numbers go to the full parser.
            guard digits < 18 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard part == 2, digits > 0, !(leadingZero && digits > 1) else { return nil }
        numbers.2 = value
        return SemanticVersion(major: numbers.0, minor: numbers.1, patch: numbers.2)
    }
}
