#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connection cap when none is configured: the process's descriptor limit less a reserve
/// for the database, logs and files, between 16 and 10,000. Accepting past the descriptor
/// limit fails in `accept` (EMFILE) and starves every client, so the cap stays under it.
public enum ConnectionLimits {
    /// Descriptors kept free for everything that is not a client connection.
    public static let reserve = 128

    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let soft = Int(clamping: min(limit.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value
        return min(10_000, max(16, soft - reserve))
    }
}
