import Crypto

/// The rollout bucket of a user for an app, 0…9999, the same on every instance:
/// the first 4 bytes of SHA-256 of `app + ":" + user`, big-endian, modulo 10 000
/// (docs/server.md). O(length of the two strings).
public enum Bucket {
    public static let count = 10_000

    public static func of(app: String, user: String) -> Int {
        var hasher = SHA256()
        hasher.update(data: Array(app.utf8))
        hasher.update(data: [0x3A])
        hasher.update(data: Array(user.utf8))
        let digest = hasher.finalize()
        var value: UInt32 = 0
        for byte in digest.prefix(4) { value = value << 8 | UInt32(byte) }
        return Int(value % UInt32(count))
    }
}
