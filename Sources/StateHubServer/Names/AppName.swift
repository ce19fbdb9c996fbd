/// A micro-app's name: `[a-z0-9][a-z0-9-]{0,63}` (docs/server.md). Safe in a URL path and a
/// log line as it is.
public struct AppName: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// `nil` when `text` breaks the rule.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard (1...64).contains(bytes.count) else { return nil }
        func isLowerAlnum(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        guard isLowerAlnum(bytes[0]), bytes.dropFirst().allSatisfy({ isLowerAlnum($0) || $0 == 0x2D }) else { return nil }
        value = String(text)
    }

    public var description: String { value }
}
