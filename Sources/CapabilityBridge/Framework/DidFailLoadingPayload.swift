/// `didFailLoading` payload: `message` required, `code` optional.
public struct DidFailLoadingPayload: Codable, Sendable, Hashable {
    public var message: String
    public var code: String?
}
