/// A coding key for any string or index: used to walk JSON objects whose keys are data
/// (colour names, component names) and to notice keys the contract does not know.
public struct AnyCodingKey: CodingKey, Hashable, Sendable, ExpressibleByStringLiteral {
    public let stringValue: String
    public let intValue: Int?

    public init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    public init(stringValue: String) { self.init(stringValue) }

    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    public init(stringLiteral value: String) { self.init(value) }
}
