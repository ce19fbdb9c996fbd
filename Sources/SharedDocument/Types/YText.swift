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
        try document.textInsert(type, at: index, TextUnits(string))
    }

    public func delete(at index: Int, count: Int) throws(SharedDocumentError) {
        try document.textDelete(type, at: index, count: count)
    }

    public func toString() -> String { type.textString() }
}
