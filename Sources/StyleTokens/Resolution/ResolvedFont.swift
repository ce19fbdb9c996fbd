/// A font resolved from `fonts`: a platform font name and a size in points.
public struct ResolvedFont: Sendable, Hashable {
    /// The name of the font entry in the theme (`"body"`).
    public let token: String
    /// The platform font name (`"HelveticaNeue"`).
    public let name: String
    /// Size in points, greater than zero.
    public let size: Double

    public init(token: String, name: String, size: Double) {
        self.token = token
        self.name = name
        self.size = size
    }
}
