import Foundation
import NIOCore
import Synchronization

/// Blob bytes by SHA-256, in memory. Content never changes under a hash, so entries need no
/// invalidation; the cache only bounds its size (oldest entry out first).
final class ContentCache: Sendable {
    private struct State {
        var entries: [String: ByteBuffer] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    private let limit: Int
    private let storage: ServerStorage

    init(storage: ServerStorage, limit: Int) {
        self.storage = storage
        self.limit = limit
    }

    /// The bytes of `sha256`, or `nil` when the database has none.
    func bytes(_ sha256: String) async throws -> ByteBuffer? {
        if let hit = state.withLock({ $0.entries[sha256] }) { return hit }
        guard let data = try await storage.blob(sha256) else { return nil }
        let buffer = ByteBuffer(bytes: data)
        state.withLock { state in
            guard state.entries[sha256] == nil, buffer.readableBytes <= limit else { return }
            while state.bytes + buffer.readableBytes > limit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.readableBytes ?? 0
            }
            state.entries[sha256] = buffer
            state.order.append(sha256)
            state.bytes += buffer.readableBytes
        }
        return buffer
    }
}
