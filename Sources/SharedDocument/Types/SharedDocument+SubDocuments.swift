// Sub-documents in maps and arrays (Yjs's `ContentDoc`): the references a document holds.
// Reading a value (`get`, `toJSON`) shows a sub-document as Yjs's `toJSON` shows one not
// loaded, an empty object; these accessors give the reference itself.

extension YMap {
    /// Puts a reference to the sub-document `reference` at `key` (Yjs: `map.set(key, new Y.Doc(…))`).
    ///
    /// - Throws: ``SharedDocumentError`` when the map was deleted, or for a `meta` nested deeper
    ///   than ``UpdateDecodingError/maximumNesting`` levels within the options.
    public func setSubdocument(_ key: String, _ reference: SubDocumentReference) throws(SharedDocumentError) {
        try YValue.checkNesting([reference.options])
        try set(key, content: .doc(reference))
    }

    /// The sub-document at `key`, if that is what it holds.
    public func subdocument(_ key: String) -> SubDocumentReference? {
        guard let item = type.map[key], !item.deleted, case .doc(let reference) = item.content else { return nil }
        return reference
    }
}

extension YArray {
    /// Inserts a reference to the sub-document `reference` at `index` (Yjs: `array.insert(index, [new Y.Doc(…)])`).
    ///
    /// - Throws: ``SharedDocumentError`` for an index past the end, or as
    ///   ``YMap/setSubdocument(_:_:)``.
    public func insertSubdocument(_ reference: SubDocumentReference, at index: Int) throws(SharedDocumentError) {
        try YValue.checkNesting([reference.options])
        try document.listInsert(type, at: index, [.subdocument(reference)])
    }

    /// The sub-document at `index`, if that is what it holds.
    public func subdocument(at index: Int) -> SubDocumentReference? {
        guard let (item, _) = type.element(at: index), case .doc(let reference) = item.content else { return nil }
        return reference
    }
}

extension SharedDocument {
    /// The sub-documents this document holds and has not deleted (Yjs's `getSubdocs()`),
    /// ordered by their items' ids (client, then clock). Walks every struct: O(structs).
    public var subdocuments: [SubDocumentReference] {
        var found: [(ID, SubDocumentReference)] = []
        for list in store.lists {
            for item in list where item.isItem && !item.deleted {
                if case .doc(let reference) = item.content { found.append((item.id, reference)) }
            }
        }
        found.sort { ($0.0.client, $0.0.clock) < ($1.0.client, $1.0.clock) }
        return found.map(\.1)
    }

    /// The guids of ``subdocuments`` (Yjs's `getSubdocGuids()`).
    public var subdocumentGUIDs: Set<String> { Set(subdocuments.map(\.guid)) }
}
