import JSEngine

/// A mutation as the page reported it: Pinia's mutation type and the precise operations.
public struct AppliedMutation: Sendable, Equatable {
    /// `direct`, `patch object` or `patch function`.
    public var type: String
    public var ops: [MutationOp]

    public init(type: String, ops: [MutationOp]) {
        self.type = type
        self.ops = ops
    }

    /// The wire form `{"type": …, "ops": […]}`.
    var wire: JSONValue { ["type": .string(type), "ops": .array(ops.map(\.wire))] }
}
