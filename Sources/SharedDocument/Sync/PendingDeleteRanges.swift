/// How many delete ranges a document keeps pending (deletes of structs it has not received),
/// for a server's budget on them (docs/sync.md §2.5): those of the client with the most, and
/// those of all clients. Counted for an update (``SharedDocument/pendingDeleteRanges(adding:)``),
/// `client` is the client with the most among those the update adds ranges to.
public struct PendingDeleteRanges: Sendable, Equatable, CustomStringConvertible {
    /// The client with the most pending ranges (nil when none are pending, or the update adds none).
    public var client: Int?
    /// That client's pending ranges.
    public var ofClient: Int
    /// Pending ranges of every client together.
    public var total: Int
    /// Of `total`, the ranges an update adds (0 for what a document holds now).
    public var added: Int

    public init(client: Int?, ofClient: Int, total: Int, added: Int = 0) {
        self.client = client
        self.ofClient = ofClient
        self.total = total
        self.added = added
    }

    public var description: String {
        "\(total) delete ranges pending" + (client.map { ", \(ofClient) of them of client \($0)" } ?? "")
    }
}
