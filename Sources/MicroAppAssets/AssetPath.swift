/// The path of one asset a micro-app version ships (docs/server.md, "Names and values" and
/// "Assets"): `/`-separated segments of `[A-Za-z0-9._-]`, checked the same way by the server on
/// upload and by Delivery before a path from a manifest names a file on the device.
///
/// A valid path is safe as a URL path and as a relative file path as it is: no segment is
/// empty, `.` or `..`, none starts with a dot, and nothing needs escaping.
public struct AssetPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Bytes in the whole path, at most.
    public static let maxBytes = 255
    /// Bytes in one segment, at most.
    public static let maxSegmentBytes = 128
    /// Segments, at most.
    public static let maxSegments = 16
    /// Names the version's own files already take (compared ignoring ASCII case).
    public static let reserved: Set<String> = ["bundle.js", "style.css"]

    /// The path as given.
    public let value: String
    /// The path in ASCII lower case: two paths with one folded form would be one file on a
    /// case-insensitive disk.
    public let folded: String

    /// Checks `text` against the rules; the error names the first rule it breaks.
    public init(_ text: some StringProtocol) throws(AssetPathError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw AssetPathError("the path is empty") }
        guard bytes.count <= Self.maxBytes else { throw AssetPathError("the path is longer than \(Self.maxBytes) bytes") }
        guard bytes.first != UInt8(ascii: "/") else { throw AssetPathError("the path must be relative (no leading /)") }
        let segments = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard segments.count <= Self.maxSegments else { throw AssetPathError("the path has more than \(Self.maxSegments) segments") }
        for segment in segments {
            guard !segment.isEmpty else { throw AssetPathError("the path has an empty segment (// or a trailing /)") }
            guard segment.count <= Self.maxSegmentBytes else {
                throw AssetPathError("a segment is longer than \(Self.maxSegmentBytes) bytes")
            }
            guard segment.first != UInt8(ascii: ".") else {
                throw AssetPathError("a segment starts with a dot (., .. and hidden files are refused)")
            }
            guard segment.allSatisfy(Self.isAllowed) else {
                throw AssetPathError("a segment has a character outside [A-Za-z0-9._-]")
            }
        }
        let folded = String(decoding: bytes.map(Self.lowercased), as: UTF8.self)
        guard !Self.reserved.contains(folded) else { throw AssetPathError("\(folded) is the version's own file, not an asset") }
        value = String(decoding: bytes, as: UTF8.self)
        self.folded = folded
    }

    /// The path's segments.
    public var segments: [Substring] { value.split(separator: "/") }

    /// The extension of the last segment in ASCII lower case (`"png"`), or `""`.
    public var fileExtension: String {
        guard let last = folded.split(separator: "/").last, let dot = last.lastIndex(of: ".") else { return "" }
        return String(last[last.index(after: dot)...])
    }

    public static func < (lhs: AssetPath, rhs: AssetPath) -> Bool { Array(lhs.value.utf8).lexicographicallyPrecedes(rhs.value.utf8) }

    public var description: String { value }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
        default: false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
