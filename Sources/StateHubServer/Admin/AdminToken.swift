import Crypto
import Foundation

/// Admin bearer tokens: 32 random bytes shown as `shk_` + base64url; only their SHA-256 is
/// stored (a random token leaves nothing to guess, so a fast unsalted hash suffices).
public enum AdminToken {
    /// A new random token.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "shk_" + base64
    }

    /// What the database keeps for `token`.
    public static func hash(_ token: String) -> String { ServerStorage.sha256Hex(Data(token.utf8)) }
}
