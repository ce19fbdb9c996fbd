/// Text an admin types that other admins read back: the labels of admin and document tokens (the
/// audit list names authors by them) and of release arms (the manifest's `variant`). Such text must
/// show what is stored, so a control or format character is refused: C0 and C1 controls, U+202E
/// RIGHT-TO-LEFT OVERRIDE and the other bidirectional controls, zero-width characters, line and
/// paragraph separators (Unicode categories Cc, Cf, Zl, Zp). With them, `ci` + U+202E + `nimda` shows as
/// another label (`ciadmin`) in the console, a log or a terminal.
enum AdminLabel {
    /// The first refused character as `U+202E`, or `nil` when the text may be stored.
    static func refusedCharacter(in text: some StringProtocol) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                return codePoint(scalar)
            default:
                continue
            }
        }
        return nil
    }

    /// `scalar` as `U+202E`: how a refusal names a character that may not print.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `400 bad-request` naming `field` and the character, when `text` holds one that is refused.
    static func check(_ text: some StringProtocol, field: String) throws(ServerError) {
        if let character = refusedCharacter(in: text) {
            throw ServerError.badRequest("\(field): the control or format character \(character) is not allowed in a label")
        }
    }
}
