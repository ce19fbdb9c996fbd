/// One entry of `configNative`'s `configs`.
///
/// `action_parameters` is validated here but taken from the raw payload by the handler, so
/// its key order reaches the page unchanged.
public enum NativeConfig: Decodable, Sendable, Hashable {
    /// `{"type":"nav_item_right","title"?,"icon_url"?,"action","action_parameters"?}`; title or icon_url required.
    case navItemRight(title: String?, iconURL: String?, action: String)
    /// `{"type":"title","title": String | null}`: pins (or with null unpins) the header title.
    case title(String?)

    enum CodingKeys: String, CodingKey {
        case type, title, action
        case iconURL = "icon_url"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "nav_item_right":
            let title = try c.decodeIfPresent(String.self, forKey: .title)
            let icon = try c.decodeIfPresent(String.self, forKey: .iconURL)
            let action = try c.decode(String.self, forKey: .action)
            guard title != nil || icon != nil else {
                throw DecodingError.dataCorruptedError(forKey: .title, in: c, debugDescription: "a nav_item_right needs title or icon_url")
            }
            self = .navItemRight(title: title, iconURL: icon, action: action)
        case "title":
            guard c.contains(.title) else { throw DecodingError.keyNotFound(CodingKeys.title, .init(codingPath: c.codingPath, debugDescription: "")) }
            self = .title(try c.decodeNil(forKey: .title) ? nil : try c.decode(String.self, forKey: .title))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown config type \"\(type)\" (nav_item_right or title)")
        }
    }
}
