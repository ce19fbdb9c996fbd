/// One action of a store: its declared parameters and the shapes of the arguments seen.
public struct ActionObservations: Sendable, Equatable {
    /// Declared parameter names, in order (`nil` where the page gave none).
    public var parameterNames: [String?] = []
    /// Whether the page declared the parameters (an empty list then means none).
    public var parametersKnown = false
    /// How many calls were seen.
    public var calls = 0
    /// The shape of each argument position seen.
    public var arguments: [TypeShape] = []

    public init() {}
}
