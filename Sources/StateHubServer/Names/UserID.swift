/// A user id as the manifest receives it: 1–128 bytes of UTF-8, no control characters.
public struct UserID: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// `nil` when `text` breaks the rule.
    public init?(_ text: some StringProtocol) {
        let count = text.utf8.count
        guard (1...128).contains(count),
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        value = String(text)
    }

    public var description: String { value }
}
