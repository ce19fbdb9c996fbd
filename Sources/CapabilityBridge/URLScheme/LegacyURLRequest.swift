import JSEngine

/// A parsed legacy bridge URL (B.5): `<scheme>://<api>?params=<url-encoded JSON>&callback=<id>`.
public struct LegacyURLRequest: Sendable, Hashable {
    /// The action (the URL's host part, case kept).
    public var api: String
    /// The decoded params object (`{}` when absent).
    public var params: JSONValue
    /// The page's callback function name, if any.
    public var callback: String?

    public init(api: String, params: JSONValue, callback: String?) {
        self.api = api
        self.params = params
        self.callback = callback
    }
}

extension LegacyURLRequest {
    /// Parses `url` strictly (B.5): the scheme must equal `scheme` (case-insensitive); the
    /// api must be `[A-Za-z0-9_]+` (so no user, port, path); no fragment; the query holds
    /// only `params` and `callback`, each at most once, as `name=value` pairs; values are
    /// percent-decoded (`+` stays `+`); `params` must be a JSON object; `callback` must match
    /// `^[A-Za-z_$][A-Za-z0-9_$]*$`.
    ///
    /// - Complexity: O(n) in the URL's length.
    /// - Throws: ``LegacyURLParseError``.
    public static func parse(_ url: String, scheme: String) throws(LegacyURLParseError) -> LegacyURLRequest {
        // The callback first, so any later failure can still be answered.
        let callback = readCallback(url)
        func fail(_ reason: String) -> LegacyURLParseError { LegacyURLParseError(callback: callback, reason: reason) }

        guard let separator = url.range(of: "://") else { throw fail("not a \(scheme):// URL") }
        let urlScheme = url[..<separator.lowerBound]
        guard urlScheme.lowercased() == scheme.lowercased() else {
            throw fail("scheme \(urlScheme) is not the bridge scheme \(scheme)")
        }
        if url.contains("#") { throw fail("a bridge URL has no fragment") }
        let rest = url[separator.upperBound...]
        let query: Substring?
        let api: Substring
        if let mark = rest.firstIndex(of: "?") {
            api = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            api = rest
            query = nil
        }
        guard !api.isEmpty else { throw fail("the api (action name) is empty") }
        guard api.utf8.allSatisfy(isAPIByte) else {
            throw fail("api \"\(api)\" must be [A-Za-z0-9_]+ (no user, port or path)")
        }
        var params: JSONValue?
        if let query, !query.isEmpty {
            let pairs = query.split(separator: "&", omittingEmptySubsequences: false)
            let callbackCount = pairs.count { $0.hasPrefix("callback=") }
            for pair in pairs {
                guard let equals = pair.firstIndex(of: "=") else { throw fail("query item \"\(pair)\" is not name=value") }
                let name = pair[..<equals]
                let raw = pair[pair.index(after: equals)...]
                switch name {
                case "params":
                    guard params == nil else { throw fail("params given more than once") }
                    guard let text = percentDecode(raw) else { throw fail("params is not valid percent-encoded UTF-8") }
                    let value: JSONValue
                    do { value = try JSONValue(parsing: text) } catch { throw fail("params is not valid JSON: \(error)") }
                    guard case .object = value else { throw fail("params must be a JSON object") }
                    params = value
                case "callback":
                    guard callbackCount == 1 else { throw fail("callback given more than once") }
                    guard callback != nil else { throw fail("callback must match ^[A-Za-z_$][A-Za-z0-9_$]*$") }
                default:
                    throw fail("unknown query item \"\(name)\" (only params and callback)")
                }
            }
        }
        return LegacyURLRequest(api: String(api), params: params ?? .object([:]), callback: callback)
    }

    /// The callback value if the query holds exactly one valid `callback=`, else `nil`.
    static func readCallback(_ url: String) -> String? {
        guard let mark = url.firstIndex(of: "?") else { return nil }
        var end = url.endIndex
        if let hash = url.firstIndex(of: "#") { end = hash }
        guard mark < end else { return nil }
        let items = url[url.index(after: mark)..<end].split(separator: "&").filter { $0.hasPrefix("callback=") }
        guard items.count == 1, let item = items.first else { return nil }
        guard let value = percentDecode(item.dropFirst("callback=".count)), isIdentifier(value) else { return nil }
        return value
    }

    static func isAPIByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// `^[A-Za-z_$][A-Za-z0-9_$]*$`.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        let isStart = { (b: UInt8) in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
        }
        return isStart(first) && text.utf8.dropFirst().allSatisfy { isStart($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }

    /// Decodes `%XX` escapes; `nil` for a bad escape or bytes that are not UTF-8.
    static func percentDecode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
