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
    /// A call or a declaration had more than ``maximumArity`` positions: the method takes any
    /// arguments (docs/types.md), and no position is followed further.
    public var tooManyArguments = false

    /// The most argument positions followed: a trace line of a million arguments would otherwise
    /// cost a shape each (hundreds of bytes per two input bytes) and a method of a million parameters.
    public static let maximumArity = 64

    public init() {}
}
