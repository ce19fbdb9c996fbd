/// A location inside a JSON document, rendered the way issues report it:
/// keys joined by dots (`components.primaryButton.backgroundColor`), indices in brackets
/// (`items[2]`), and keys that are not plain identifiers quoted (`colors["brand.blue"]`).
public struct ThemeJSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Segment: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// Steps from the document root.
    public var segments: [Segment]

    /// The document root (rendered as `$`).
    public static let root = ThemeJSONPath(segments: [])

    public init(segments: [Segment]) { self.segments = segments }

    /// A path from plain keys, e.g. `ThemeJSONPath("components", "cardView")`.
    public init(_ keys: String...) { self.segments = keys.map(Segment.key) }

    /// A path from a `Codable` coding path.
    public init(codingPath: [any CodingKey]) {
        self.segments = codingPath.map { key in
            if let index = key.intValue, key.stringValue == String(index) { .index(index) } else { .key(key.stringValue) }
        }
    }

    /// This path with one more key.
    public func appending(_ key: String) -> ThemeJSONPath { ThemeJSONPath(segments: segments + [.key(key)]) }

    /// This path with one more array index.
    public func appending(index: Int) -> ThemeJSONPath { ThemeJSONPath(segments: segments + [.index(index)]) }

    public var description: String {
        if segments.isEmpty { return "$" }
        var text = ""
        for segment in segments {
            switch segment {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isPlainIdentifier(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                text += "[\"\(escaped)\"]"
            }
        }
        return text
    }

    private static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}
