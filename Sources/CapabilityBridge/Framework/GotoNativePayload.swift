import JSEngine

/// `gotoNative` payload: `page` required, `params` optional (a JSON object).
public struct GotoNativePayload: Decodable, Sendable, Hashable {
    public var page: String
    public var params: JSONValue?

    enum CodingKeys: String, CodingKey { case page, params }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        page = try c.decode(String.self, forKey: .page)
        if c.contains(.params), try !c.decodeNil(forKey: .params) {
            _ = try c.decode([String: JSONValue].self, forKey: .params)  // must be an object
            params = try c.decode(JSONValue.self, forKey: .params)
        }
    }
}
