/// The kind of a shared type, by Yjs's type ref.
public enum SharedTypeKind: Equatable, Sendable, CustomStringConvertible {
    /// A root seen only in an update: Yjs shows it only once asked for as a map, array or text.
    case unknown
    case array
    case map
    case text
    case xmlElement(String)
    case xmlFragment
    case xmlHook(String)
    case xmlText

    var ref: Int {
        switch self {
        case .unknown, .array: 0
        case .map: 1
        case .text: 2
        case .xmlElement: 3
        case .xmlFragment: 4
        case .xmlHook: 5
        case .xmlText: 6
        }
    }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .array: "array"
        case .map: "map"
        case .text: "text"
        case .xmlElement(let name): "xml element <\(name)>"
        case .xmlFragment: "xml fragment"
        case .xmlHook(let name): "xml hook \(name)"
        case .xmlText: "xml text"
        }
    }
}

/// A search marker: a known (item, index) pair in an array or text (Yjs's `ArraySearchMarker`).
struct SearchMarker {
    unowned(unsafe) var item: Item
    var index: Int
    var timestamp: Int
}

/// The state of one map, array or text: its list of items and its keyed entries.
final class SharedType {
    @exclusivity(unchecked) var kind: SharedTypeKind
    /// The item that holds this type, nil for a root.
    @exclusivity(unchecked) unowned(unsafe) var item: Item?
    /// The name of a root type.
    var rootName: String?
    @exclusivity(unchecked) unowned(unsafe) var start: Item?
    /// Keyed entries: the newest item per key (the value, unless deleted).
    @exclusivity(unchecked) var map: [String: Item] = [:]
    /// Keys in the order this replica first saw them (Yjs's `_map` is a JS `Map`).
    var keyOrder: [String] = []
    /// Per key, the first item of its list (the oldest, leftmost): where an item with no left
    /// neighbour starts its conflict scan and is linked. Walking there from `map` costs the whole
    /// list per entry: quadratic in the entries of one key (19,000 clients in one update: 5 s).
    @exclusivity(unchecked) var keyStarts: [String: Item] = [:]
    /// Count of visible, countable items in the list.
    @exclusivity(unchecked) var length = 0
    /// Arrays and text keep search markers; maps do not.
    @exclusivity(unchecked) var markers: [SearchMarker]?
    @exclusivity(unchecked) unowned(unsafe) var document: SharedDocument?
    /// How many types it sits in (0 for a root), set when its item is integrated: lets deep
    /// observation skip a type past the nesting limit without walking its parents.
    @exclusivity(unchecked) var depth = 0

    init(kind: SharedTypeKind) {
        self.kind = kind
        if Self.usesMarkers(kind) { markers = [] }
    }

    static func usesMarkers(_ kind: SharedTypeKind) -> Bool {
        switch kind {
        case .array, .text, .xmlText, .xmlFragment, .xmlElement: true
        default: false
        }
    }

    func setKind(_ newKind: SharedTypeKind) {
        kind = newKind
        if Self.usesMarkers(newKind) && markers == nil { markers = [] }
    }

    /// Sets the current item for `key`, remembering when the key was first seen.
    @inline(__always)
    func setMapEntry(_ key: String, _ item: Item) {
        if map.updateValue(item, forKey: key) == nil { keyOrder.append(key) }
    }
}
