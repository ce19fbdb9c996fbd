/// One struct of the store: an item with content, or a GC range (``isGC``).
///
/// Items are owned by the store's per-client arrays; `left`, `right` and `parent` are
/// `unowned(unsafe)` so walking a list costs no reference counting. That is sound because an
/// item leaves the store only when it is merged into its left neighbour (whose links are
/// rewired first) or replaced by a GC struct together with every sibling of its deleted
/// parent type (nothing live points at those any more).
///
/// Stored properties are `@exclusivity(unchecked)`, as are the hot ones of ``SharedType``,
/// ``Transaction`` and the document's `store`: each read of a class's stored property
/// otherwise calls `swift_beginAccess` at run time, several per item walked, encoded or
/// integrated. A document is used from one isolation domain and no code here keeps an
/// `inout` access to a property open across a call that touches it (the debug test runs,
/// with checks on, were clean before the checks were turned off).
final class Item {
    // What an encode reads (content, flags, ids, length, parent key) comes first: bytes 16–104
    // of the object, fewer cache lines per struct on a walk right after editing.
    @exclusivity(unchecked) var content: ItemContent
    @exclusivity(unchecked) var flags: UInt8
    @exclusivity(unchecked) var id: ID
    @exclusivity(unchecked) var length: Int
    // The optional ids are stored without `Optional`'s tag byte (which pads each to 24 bytes):
    // absent is a clock of `Int.min`, which no struct has. The parent id of an item read from
    // an update shares the right origin's slot: the format carries a parent only when the item
    // has neither origin. 128 bytes per item instead of 186 (a 144-byte malloc chunk instead
    // of 208).
    @exclusivity(unchecked) private var originSlot: ID
    @exclusivity(unchecked) private var rightOriginSlot: ID
    /// The key of a map entry (nil for list items).
    @exclusivity(unchecked) var parentSub: String?
    /// The neighbours as unretained references: `integrate` links and compares through them
    /// without the retain and release a strong local costs; ``left`` and ``right`` are the
    /// same links as `Item?` for everything else.
    @exclusivity(unchecked) var leftRef: Unmanaged<Item>?
    @exclusivity(unchecked) var rightRef: Unmanaged<Item>?
    @exclusivity(unchecked) unowned(unsafe) var parent: SharedType?

    private static let absent = ID(client: 0, clock: .min)

    var left: Item? {
        @inline(__always) get { leftRef?.takeUnretainedValue() }
        @inline(__always) set { leftRef = newValue.map { Unmanaged.passUnretained($0) } }
    }

    var right: Item? {
        @inline(__always) get { rightRef?.takeUnretainedValue() }
        @inline(__always) set { rightRef = newValue.map { Unmanaged.passUnretained($0) } }
    }

    /// The id of the item to the left when this was created (its last clock).
    var origin: ID? {
        @inline(__always) get { originSlot.clock == .min ? nil : originSlot }
        @inline(__always) set { originSlot = newValue ?? Self.absent }
    }

    /// The id of the item to the right when this was created.
    var rightOrigin: ID? {
        @inline(__always) get { flags & Item.parentIDFlag != 0 || rightOriginSlot.clock == .min ? nil : rightOriginSlot }
        set {
            flags &= ~Item.parentIDFlag
            rightOriginSlot = newValue ?? Self.absent
        }
    }

    /// Before integration: the parent named by id (resolved in `resolveDependencies`). Only
    /// an item with no right origin has one (setting a right origin clears it).
    var parentID: ID? {
        @inline(__always) get { flags & Item.parentIDFlag != 0 ? rightOriginSlot : nil }
        set {
            if let newValue {
                flags |= Item.parentIDFlag
                rightOriginSlot = newValue
            } else if flags & Item.parentIDFlag != 0 {
                flags &= ~Item.parentIDFlag
                rightOriginSlot = Self.absent
            }
        }
    }

    static let deletedFlag: UInt8 = 1
    static let keepFlag: UInt8 = 2
    static let markerFlag: UInt8 = 4
    static let gcFlag: UInt8 = 8
    /// Only in updates and pending refs: a range this update does not carry.
    static let skipFlag: UInt8 = 16
    /// `rightOriginSlot` holds the parent id (``parentID``), not a right origin.
    static let parentIDFlag: UInt8 = 32

    init(id: ID, length: Int, origin: ID?, rightOrigin: ID?, parent: SharedType?, parentID: ID?, parentSub: String?, content: ItemContent) {
        self.id = id
        self.length = length
        self.originSlot = origin ?? Self.absent
        self.rightOriginSlot = rightOrigin ?? Self.absent
        self.parent = parent
        self.parentSub = parentSub
        self.content = content
        self.flags = 0
        if rightOrigin == nil, let parentID {
            rightOriginSlot = parentID
            flags = Item.parentIDFlag
        }
    }

    /// A GC struct covering `length` clocks from `id`.
    static func gc(id: ID, length: Int) -> Item {
        let item = Item(id: id, length: length, origin: nil, rightOrigin: nil, parent: nil, parentID: nil, parentSub: nil, content: .deleted(length))
        item.flags = deletedFlag | gcFlag
        return item
    }

    /// A Skip struct (only in refs read from an update).
    static func skip(id: ID, length: Int) -> Item {
        let item = Item(id: id, length: length, origin: nil, rightOrigin: nil, parent: nil, parentID: nil, parentSub: nil, content: .deleted(length))
        item.flags = deletedFlag | skipFlag
        return item
    }

    @inline(__always) var isGC: Bool { flags & Item.gcFlag != 0 }
    @inline(__always) var isSkip: Bool { flags & Item.skipFlag != 0 }
    /// GC and Skip structs are not items (Yjs's `constructor !== Item`).
    @inline(__always) var isItem: Bool { flags & (Item.gcFlag | Item.skipFlag) == 0 }
    @inline(__always) var deleted: Bool { flags & Item.deletedFlag != 0 }
    @inline(__always) var marker: Bool {
        get { flags & Item.markerFlag != 0 }
        set { if newValue { flags |= Item.markerFlag } else { flags &= ~Item.markerFlag } }
    }
    var keep: Bool { flags & Item.keepFlag != 0 }
    @inline(__always) func markDeleted() { flags |= Item.deletedFlag }
    @inline(__always) var countable: Bool { content.isCountable }
    @inline(__always) var visibleCountable: Bool { flags & Item.deletedFlag == 0 && content.isCountable }

    var lastID: ID { length == 1 ? id : ID(client: id.client, clock: id.clock + length - 1) }

    /// The next item to the right that is not deleted.
    var next: Item? {
        var node = right
        while let candidate = node, candidate.deleted { node = candidate.right }
        return node
    }

    /// The next item to the left that is not deleted.
    var prev: Item? {
        var node = left
        while let candidate = node, candidate.deleted { node = candidate.left }
        return node
    }
}
