import JSEngine

/// One call from a page, whichever transport carried it: the action, its payload (always
/// a JSON object) and the request id used to answer it.
public struct BridgeRequest: Sendable, Hashable {
    /// `"c17"` on the message transport; the callback name (or `nil`) on the legacy one.
    public var id: String?
    /// The action name (`"showAlert"`).
    public var action: String
    /// The payload object, key order as the page wrote it.
    public var payload: JSONValue

    public init(id: String?, action: String, payload: JSONValue) {
        self.id = id
        self.action = action
        self.payload = payload
    }
}

extension BridgeRequest {
    /// Parses a B.1 request text: `{"v":1,"id":"c17","action":"…","payload":{…}}`.
    ///
    /// Unknown extra fields are ignored; `payload` may be absent (treated as `{}`).
    /// - Complexity: O(n) in the text's length.
    /// - Throws: ``BridgeRequestParseError`` carrying the id when it could be read.
    static func parse(_ text: String) throws(BridgeRequestParseError) -> BridgeRequest {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch {
            throw BridgeRequestParseError(id: nil, message: "request is not valid JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw BridgeRequestParseError(id: nil, message: "request is not a JSON object")
        }
        guard let idValue = members["id"] else {
            throw BridgeRequestParseError(id: nil, message: "request.id: required field missing")
        }
        guard case .string(let id) = idValue else {
            throw BridgeRequestParseError(id: nil, message: "request.id: expected String")
        }
        if let v = members["v"], v != .number(1) {
            throw BridgeRequestParseError(id: id, message: "request.v: unsupported protocol version \(v.jsonText())")
        }
        guard let actionValue = members["action"] else {
            throw BridgeRequestParseError(id: id, message: "request.action: required field missing")
        }
        guard case .string(let action) = actionValue, !action.isEmpty else {
            throw BridgeRequestParseError(id: id, message: "request.action: expected a non-empty String")
        }
        let payload = members["payload"] ?? .object([:])
        guard case .object = payload else {
            throw BridgeRequestParseError(id: id, message: "\(action): payload: expected an object")
        }
        return BridgeRequest(id: id, action: action, payload: payload)
    }

    /// Reads the request id from the first bytes of an oversize request without parsing it
    /// all (the client writes `v`, `id`, `action` first). `nil` when not found there.
    ///
    /// - Complexity: O(1): looks at most at the first 256 bytes.
    static func peekID(_ text: String) -> String? {
        let prefix = Array(text.utf8.prefix(256))
        let marker = Array(#""id":""#.utf8)
        guard prefix.count > marker.count else { return nil }
        for start in 0...(prefix.count - marker.count) where prefix[start..<start + marker.count].elementsEqual(marker) {
            var end = start + marker.count
            var id: [UInt8] = []
            while end < prefix.count, prefix[end] != UInt8(ascii: "\"") {
                guard prefix[end] != UInt8(ascii: "\\") else { return nil }
                id.append(prefix[end])
                end += 1
            }
            return end < prefix.count ? String(decoding: id, as: UTF8.self) : nil
        }
        return nil
    }
}

/// A request text that is not a valid B.1 request. `id` is set when it could be read, so
/// the page can still be answered.
struct BridgeRequestParseError: Error, Sendable {
    var id: String?
    var message: String
}
