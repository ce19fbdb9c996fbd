/// Why a text is not a valid `AssetPath`, in a sentence.
public struct AssetPathError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
