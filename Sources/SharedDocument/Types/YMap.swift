/// A shared map (Yjs `Y.Map`): last writer wins per key, concurrent writes resolved as Yjs does.
public struct YMap {
    let type: SharedType
    let document: SharedDocument

    init(type: SharedType, document: SharedDocument) {
        self.type = type
        self.document = document
    }

    /// Keys with a value, in the order this replica first saw them.
    public var keys: [String] { type.keyOrder.filter { type.map[$0].map { !$0.deleted } ?? false } }

    public var count: Int { keys.count }

    /// The value at `key` as JSON (a nested type as its `toJSON`).
    public func get(_ key: String) throws(SharedDocumentError) -> YValue? {
        guard let item = type.map[key], !item.deleted else { return nil }
        return try SharedType.lastValue(of: item, depth: 0)
    }

    public func set(_ key: String, _ value: YValue) throws(SharedDocumentError) {
        if case .bytes(let data) = value { try set(key, content: .binary(data)) } else { try set(key, content: .any([value])) }
    }

    /// Puts a new, empty map at `key` and returns it.
    @discardableResult
    public func setMap(_ key: String) throws(SharedDocumentError) -> YMap {
        let child = SharedType(kind: .map)
        try set(key, content: .type(child))
        return YMap(type: child, document: document)
    }

    @discardableResult
    public func setArray(_ key: String) throws(SharedDocumentError) -> YArray {
        let child = SharedType(kind: .array)
        try set(key, content: .type(child))
        return YArray(type: child, document: document)
    }

    @discardableResult
    public func setText(_ key: String) throws(SharedDocumentError) -> YText {
        let child = SharedType(kind: .text)
        try set(key, content: .type(child))
        return YText(type: child, document: document)
    }

    func set(_ key: String, content: ItemContent) throws(SharedDocumentError) {
        try document.checkAlive(type)
        document.transact { transaction in
            let left = type.map[key]
            document.insertItem(content, parent: type, left: left, right: nil, parentSub: key, transaction)
        }
    }

    public func delete(_ key: String) throws(SharedDocumentError) {
        try document.checkAlive(type)
        document.transact { transaction in
            if let item = type.map[key] { document.delete(item, transaction) }
        }
    }

    /// The nested map at `key`, if that is what it holds.
    public func map(_ key: String) -> YMap? { child(key, .map).map { YMap(type: $0, document: document) } }
    public func array(_ key: String) -> YArray? { child(key, .array).map { YArray(type: $0, document: document) } }
    public func text(_ key: String) -> YText? { child(key, .text).map { YText(type: $0, document: document) } }

    func child(_ key: String, _ kind: SharedTypeKind) -> SharedType? {
        guard let item = type.map[key], !item.deleted, case .type(let child) = item.content, child.kind == kind else { return nil }
        return child
    }

    public func toJSON() throws(SharedDocumentError) -> YValue { try type.toJSON(depth: 0) }
}

/// A shared array (Yjs `Y.Array`).
public struct YArray {
    let type: SharedType
    let document: SharedDocument

    init(type: SharedType, document: SharedDocument) {
        self.type = type
        self.document = document
    }

    public var count: Int { type.length }

    public func insert(_ values: [YValue], at index: Int) throws(SharedDocumentError) {
        try document.listInsert(type, at: index, values.map(ListContent.value))
    }

    public func push(_ values: [YValue]) throws(SharedDocumentError) {
        try document.listPush(type, values.map(ListContent.value))
    }

    @discardableResult
    public func insertMap(at index: Int) throws(SharedDocumentError) -> YMap {
        let child = SharedType(kind: .map)
        try document.listInsert(type, at: index, [.type(child)])
        return YMap(type: child, document: document)
    }

    @discardableResult
    public func insertArray(at index: Int) throws(SharedDocumentError) -> YArray {
        let child = SharedType(kind: .array)
        try document.listInsert(type, at: index, [.type(child)])
        return YArray(type: child, document: document)
    }

    @discardableResult
    public func insertText(at index: Int) throws(SharedDocumentError) -> YText {
        let child = SharedType(kind: .text)
        try document.listInsert(type, at: index, [.type(child)])
        return YText(type: child, document: document)
    }

    public func delete(at index: Int, count: Int = 1) throws(SharedDocumentError) {
        try document.listDelete(type, at: index, count: count)
    }

    /// The element at `index` as JSON.
    public func get(_ index: Int) throws(SharedDocumentError) -> YValue? {
        guard let (item, offset) = type.element(at: index) else { return nil }
        return try SharedType.value(of: item, at: offset, depth: 0)
    }

    public func map(at index: Int) -> YMap? { child(index, .map).map { YMap(type: $0, document: document) } }
    public func array(at index: Int) -> YArray? { child(index, .array).map { YArray(type: $0, document: document) } }
    public func text(at index: Int) -> YText? { child(index, .text).map { YText(type: $0, document: document) } }

    func child(_ index: Int, _ kind: SharedTypeKind) -> SharedType? {
        guard let (item, _) = type.element(at: index), case .type(let child) = item.content, child.kind == kind else { return nil }
        return child
    }

    public func toJSON() throws(SharedDocumentError) -> YValue { try type.toJSON(depth: 0) }
}

/// A shared text (Yjs `Y.Text`): indices and lengths in UTF-16 code units, as Yjs's.
public struct YText {
    let type: SharedType
    let document: SharedDocument

    init(type: SharedType, document: SharedDocument) {
        self.type = type
        self.document = document
    }

    /// Length in UTF-16 code units.
    public var length: Int { type.length }

    public func insert(_ string: String, at index: Int) throws(SharedDocumentError) {
        try document.textInsert(type, at: index, Array(string.utf16))
    }

    public func delete(at index: Int, count: Int) throws(SharedDocumentError) {
        try document.textDelete(type, at: index, count: count)
    }

    public func toString() -> String { type.textString() }
}
