/// What the applied updates hold that the document cannot show yet: structs waiting for
/// content they depend on, and deletes of ranges not received. Yjs keeps both silently
/// (`doc.store.pendingStructs`, `pendingDs`); ``SharedDocument/pending`` says what they are.
public struct PendingContent: Equatable, Sendable {
    /// A clock range of one client, `clocks.lowerBound ..< clocks.upperBound`.
    public struct Span: Equatable, Hashable, Sendable, CustomStringConvertible {
        public var client: Int
        public var clocks: Range<Int>

        public init(client: Int, clocks: Range<Int>) {
            self.client = client
            self.clocks = clocks
        }

        public var description: String {
            clocks.count == 1 ? "client \(client) clock \(clocks.lowerBound)" : "client \(client) clocks \(clocks.lowerBound)–\(clocks.upperBound - 1)"
        }
    }

    /// Structs of one client received but not integrated: the clocks they cover, how many.
    public struct Waiting: Equatable, Hashable, Sendable {
        public var span: Span
        public var count: Int

        public init(span: Span, count: Int) {
            self.span = span
            self.count = count
        }
    }

    /// Structs received but not integrated, per client (lowest client first).
    public var structs: [Waiting]
    /// What they wait for, per client: clocks not received that they need. At least these:
    /// like Yjs, the document records the first gap per client, not every later one.
    public var missing: [Span]
    /// Deleted ranges whose structs have not arrived, per client and range.
    public var deletes: [Span]

    public var isEmpty: Bool { structs.isEmpty && deletes.isEmpty }

    public init(structs: [Waiting], missing: [Span], deletes: [Span]) {
        self.structs = structs
        self.missing = missing
        self.deletes = deletes
    }
}
