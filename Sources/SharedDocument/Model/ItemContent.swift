/// What an item holds (Yjs's content classes, by their wire ref).
enum ItemContent {
    /// 1: a deleted range whose content was garbage-collected.
    case deleted(Int)
    /// 2: legacy JSON content, kept as the JSON texts received.
    case json([String])
    /// 3
    case binary([UInt8])
    /// 4: text, counted in UTF-16 code units as Yjs's lengths are (held compactly: ``TextUnits``).
    case string(TextUnits)
    /// 5: an embed, as its JSON text. Indirect, as `format`: rare, and inline they would
    /// make every item's content 33 bytes wide instead of 9.
    indirect case embed(String)
    /// 6: a formatting attribute (not counted in length).
    indirect case format(key: String, value: String)
    /// 7: a nested shared type.
    case type(SharedType)
    /// 8: values, small integers packed (``AnyValues``).
    case any(AnyValues)
    /// 9: a sub-document's reference. Indirect, as `embed`.
    indirect case doc(SubDocumentReference)

    var ref: UInt8 {
        switch self {
        case .deleted: 1
        case .json: 2
        case .binary: 3
        case .string: 4
        case .embed: 5
        case .format: 6
        case .type: 7
        case .any: 8
        case .doc: 9
        }
    }

    var length: Int {
        switch self {
        case .deleted(let count): count
        case .json(let values): values.count
        case .string(let units): units.count
        case .any(let values): values.count
        case .binary, .embed, .format, .type, .doc: 1
        }
    }

    var isCountable: Bool {
        switch self {
        case .deleted, .format: false
        default: true
        }
    }

    /// Splits at `offset`, keeping the left part here and returning the right part
    /// (Yjs's `splice`, with its U+FFFD replacement of a cut surrogate pair).
    mutating func splice(at offset: Int) -> ItemContent {
        switch self {
        case .deleted(let count):
            self = .deleted(offset)
            return .deleted(count - offset)
        case .json(let values):
            self = .json(Array(values[..<offset]))
            return .json(Array(values[offset...]))
        case .any(var values):
            self = .deleted(0)
            let right = values.split(at: offset)
            self = .any(values)
            return .any(right)
        case .string(var units):
            self = .deleted(0)
            let right = units.split(at: offset)
            self = .string(units)
            return .string(right)
        case .binary, .embed, .format, .type, .doc:
            // Length-1 contents are never split (Yjs throws here too).
            return self
        }
    }

    /// Appends `right` if both are the same mergeable kind (Yjs's `mergeWith`).
    ///
    /// Our content is swapped out before its payload is bound, so the payload holds the only
    /// reference and the append happens in place. Bound straight from `self` (`switch self`,
    /// `case .any(var values)`, then `self = .deleted(0)`), the 16-byte enum was copied first
    /// and the array stayed shared: copied whole on every push, a quadratic B1.6.
    mutating func merge(_ right: ItemContent) -> Bool {
        switch right {
        case .deleted(let more):
            guard case .deleted(let count) = self else { return false }
            self = .deleted(count + more)
        case .string(let more):
            guard case .string = self, case .string(var units) = take() else { return false }
            units.append(more)
            self = .string(units)
        case .any(let more):
            guard case .any = self, case .any(var values) = take() else { return false }
            values.append(contentsOf: more)
            self = .any(values)
        case .json(let more):
            guard case .json = self, case .json(var values) = take() else { return false }
            values.append(contentsOf: more)
            self = .json(values)
        default:
            return false
        }
        return true
    }

    /// Our content, moved out (`.deleted(0)` left in its place).
    private mutating func take() -> ItemContent {
        var taken = ItemContent.deleted(0)
        swap(&self, &taken)
        return taken
    }

    func sameKind(as other: ItemContent) -> Bool { ref == other.ref }
}
