/// A shared array (Yjs `Y.Array`).
public struct YArray {
    let type: SharedType
    let document: SharedDocument

    init(type: SharedType, document: SharedDocument) {
        self.type = type
        self.document = document
    }

    public var count: Int { type.length }

    /// - Throws: ``SharedDocumentError`` for an index past the end, or a value nested deeper
    ///   than ``UpdateDecodingError/maximumNesting`` levels.
    public func insert(_ values: [YValue], at index: Int) throws(SharedDocumentError) {
        try YValue.checkNesting(values)
        try document.listInsert(type, at: index, values.map(ListContent.value))
    }

    public func push(_ values: [YValue]) throws(SharedDocumentError) {
        try YValue.checkNesting(values)
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

    /// The element at `index` as JSON (a sub-document as an empty object: ``subdocument(at:)``
    /// gives its reference).
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

    public func toJSON(subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue { try type.toJSON(depth: 0, subdocuments: subdocuments) }
}
