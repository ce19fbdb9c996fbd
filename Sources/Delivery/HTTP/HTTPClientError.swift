import Foundation

/// The request never got an answer.
public struct HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
