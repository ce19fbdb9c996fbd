/// `showAlert` result: the index of the button chosen.
public struct ShowAlertResult: Codable, Sendable, Hashable {
    public var index: Int
    public init(index: Int) { self.index = index }
}
