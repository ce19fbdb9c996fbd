/// Delivery has nothing it can load: the server's version is unusable and no good version is on disk.
public struct DeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    public let app: String
    /// Every problem met on the way, in order.
    public let problems: [DeliveryProblem]

    public init(app: String, problems: [DeliveryProblem]) {
        self.app = app
        self.problems = problems
    }

    public var description: String {
        "nothing to load for \(app): " + problems.map(\.description).joined(separator: "; ")
    }
}
