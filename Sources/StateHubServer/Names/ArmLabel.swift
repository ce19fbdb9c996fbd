/// A release arm's label, reported to devices as the manifest's `variant` and read by admins in
/// the console: 1–32 characters of ASCII letters, digits, `.`, `_` and `-` (docs/server.md,
/// "Release model"). Nothing else, so two labels that look alike are equal: a Cyrillic `А`
/// (U+0410) beside a Latin `A`, a fullwidth `Ａ`, or a label ending in a space would otherwise
/// name two arms with one look.
enum ArmLabel {
    /// The longest label, in characters (each one byte).
    static let maxLength = 32

    /// Why `label` may not be stored (`nil`: it may): too short, too long, or the first
    /// character outside the set, as `U+0410`.
    static func refusal(_ label: String) -> String? {
        if let scalar = label.unicodeScalars.first(where: { !$0.isASCII || !isAllowed(UInt8($0.value)) }) {
            return "the character \(AdminLabel.codePoint(scalar)) is not allowed"
                + " (a label is ASCII letters, digits, '.', '_' and '-')"
        }
        return (1...maxLength).contains(label.utf8.count) ? nil : "1–\(maxLength) characters"
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
