import JSEngine

/// What an action threw, as the page reported it.
public struct ActionFailure: Sendable, Equatable {
    /// `Error`, `TypeError`…, or the `typeof` of a thrown non-Error value.
    public var name: String
    public var message: String
    /// The JavaScript stack; empty when the thrown value had none.
    public var stack: String

    public init(name: String, message: String, stack: String) {
        self.name = name
        self.message = message
        self.stack = stack
    }
}
