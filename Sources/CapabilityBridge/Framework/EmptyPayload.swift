/// The payload of an action that takes none: any JSON object (extra fields ignored).
public struct EmptyPayload: Codable, Sendable, Hashable {
    public init() {}
}
