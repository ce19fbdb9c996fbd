import Foundation

/// A user id as the manifest receives it: 1–128 bytes of UTF-8, no control or format character
/// (the characters `AdminLabel` refuses: bidirectional controls and zero-width characters make
/// one id show as another in the console, a log or a terminal). Kept in Unicode NFC, the form a
/// release stores its users in, so `"e\u{301}"` and `"é"` are one user with one bucket.
public struct UserID: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// `nil` when `text` breaks the rule.
    public init?(_ text: some StringProtocol) {
        let count = text.utf8.count
        guard (1...128).contains(count),
              AdminLabel.refusedCharacter(in: text) == nil
        else { return nil }
        value = String(text).precomposedStringWithCanonicalMapping
    }

    public var description: String { value }
}
