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

    /// The value at `key` as JSON (a nested type as its `toJSON`, a sub-document as an empty
    /// object: ``subdocument(_:)`` gives its reference).
    public func get(_ key: String) throws(SharedDocumentError) -> YValue? {
        guard let item = type.map[key], !item.deleted else { return nil }
        return try SharedType.lastValue(of: item, depth: 0)
    }

    /// - Throws: ``SharedDocumentError`` when the type was deleted, or for a value nested
    ///   deeper than ``UpdateDecodingError/maximumNesting`` levels.
    public func set(_ key: String, _ value: YValue) throws(SharedDocumentError) {
        try YValue.checkNesting([value])
        if case .bytes(let data) = value { try set(key, content: .binary(data)) } else { try set(key, content: .any(AnyValues([value]))) }
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
        try edit { transaction in
            document.insertItem(content, parent: type, left: type.map[key], right: nil, parentSub: key, transaction)
        }
    }

    public func delete(_ key: String) throws(SharedDocumentError) {
        try edit { transaction in
            if let item = type.map[key] { document.delete(item, transaction) }
        }
    }

    /// A local change: refused on a deleted type, else made in one transaction.
    private func edit(_ body: (Transaction) -> Void) throws(SharedDocumentError) {
        try document.checkAlive(type)
        document.transact(body)
    }

    /// The nested map at `key`, if that is what it holds.
    public func map(_ key: String) -> YMap? { child(key, .map).map { YMap(type: $0, document: document) } }
    public func array(_ key: String) -> YArray? { child(key, .array).map { YArray(type: $0, document: document) } }
    public func text(_ key: String) -> YText? { child(key, .text).map { YText(type: $0, document: document) } }

    func child(_ key: String, _ kind: SharedTypeKind) -> SharedType? {
        guard let item = type.map[key], !item.deleted, case .type(let child) = item.content, child.kind == kind else { return nil }
        return child
    }

    public func toJSON(subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue { try type.toJSON(depth: 0, subdocuments: subdocuments) }
}
