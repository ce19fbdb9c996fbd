/// Why the storage could not be opened or could not answer.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
