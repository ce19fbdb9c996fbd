import Testing
@testable import SharedDocument

/// Sub-document references without a peer: the options as Yjs keeps them, the two JSON forms,
/// and the bounds on what the API accepts. `SubDocumentTests` checks the bytes against Yjs.
@Suite(.tags(.unit))
struct SubDocumentReferenceTests {
    @Test func optionsAreWrittenInYjssOrderAndOnlyWhenNotDefault() {
        #expect(SubDocumentReference(guid: "g").options == .object([:]))
        let all = SubDocumentReference(guid: "g", gc: false, autoLoad: true, meta: .string("m"))
        #expect(all.options == .object(["gc": .bool(false), "autoLoad": .bool(true), "meta": .string("m")]))
        #expect(all.jsonValue == .object(["guid": .string("g"), "gc": .bool(false), "autoLoad": .bool(true), "meta": .string("m")]))
        #expect(SubDocumentReference(guid: "g", meta: .null).meta == nil)
    }

    @Test func receivedOptionsFollowJavaScriptsDefaultsAndTruthiness() {
        let read = SubDocumentReference(guid: "g", yjsOptions: .object(["gc": .int(0), "autoLoad": .string("x"), "extra": .int(1)]))
        #expect(read == SubDocumentReference(guid: "g", gc: false, autoLoad: true))
        #expect(SubDocumentReference(guid: "g", yjsOptions: .object(["gc": .undefined])) == SubDocumentReference(guid: "g"))
        #expect(SubDocumentReference(guid: "g", yjsOptions: .object(["gc": .null])) == SubDocumentReference(guid: "g", gc: false))
        #expect(SubDocumentReference(guid: "g", yjsOptions: .object(["guid": .string("h")]))?.guid == "h")
        #expect(SubDocumentReference(guid: "g", yjsOptions: .int(3)) == SubDocumentReference(guid: "g"))
        #expect(SubDocumentReference(guid: "g", yjsOptions: .null) == nil)
        #expect(SubDocumentReference(guid: "g", yjsOptions: .object(["guid": .int(1)])) == nil)
    }

    @Test func randomGuidsAreVersion4UUIDs() {
        let guid = SubDocumentReference.randomGUID()
        let groups = guid.split(separator: "-").map(\.count)
        #expect(groups == [8, 4, 4, 4, 12])
        #expect(guid.allSatisfy { "0123456789abcdef-".contains($0) })
        #expect(Array(guid)[14] == "4")
        #expect(SubDocumentReference().guid != SubDocumentReference().guid)
    }

    @Test func valuesShowAsYjsShowsThemAndTheReferenceOnRequest() throws {
        let document = SharedDocument(clientID: 1)
        try document.map("m").setSubdocument("notes", SubDocumentReference(guid: "n", autoLoad: true))
        try document.array("a").insertSubdocument(SubDocumentReference(guid: "p"), at: 0)
        #expect(try document.map("m").get("notes") == .object([:]))
        #expect(try document.toJSON() == .object(["m": .object(["notes": .object([:])]), "a": .array([.object([:])])]))
        #expect(try document.toJSON(subdocuments: .reference) == .object([
            "m": .object(["notes": .object(["guid": .string("n"), "autoLoad": .bool(true)])]),
            "a": .array([.object(["guid": .string("p")])]),
        ]))
        #expect(document.subdocuments.map(\.guid) == ["n", "p"])
        #expect(try document.map("m").subdocument("missing") == nil)
        #expect(try document.array("a").subdocument(at: 1) == nil)
    }

    @Test func metaDeeperThanAnUpdateCarriesIsRefused() throws {
        var meta = YValue.null
        // 512 levels of meta: 513 with the options object around it.
        for _ in 0..<(UpdateDecodingError.maximumNesting - 1) { meta = .array([meta]) }
        let document = SharedDocument(clientID: 1)
        let before = try document.encodeStateAsUpdate()
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.map("m").setSubdocument("k", SubDocumentReference(meta: meta)) }
        #expect(throws: SharedDocumentError(.nestingTooDeep)) { try document.array("a").insertSubdocument(SubDocumentReference(meta: meta), at: 0) }
        #expect(try document.encodeStateAsUpdate() == before)
        // One level less fits, and reads back.
        guard case .array(let inner) = meta, let shallower = inner.first else { return }
        try document.map("m").setSubdocument("k", SubDocumentReference(guid: "g", meta: shallower))
        let copy = SharedDocument(clientID: 2)
        try copy.applyUpdate(try document.encodeStateAsUpdate())
        #expect(try copy.map("m").subdocument("k")?.meta == shallower)
    }
}
