import FuzzSupport
import SharedDocument

/// The Yjs update decoder (docs/shared-document.md) on arbitrary bytes, as a sync server meets
/// them: applied to a fresh document and to one that already holds content, and given to the
/// document-free functions. It must answer a typed error or a document that still encodes,
/// re-reads and prints; a refused update leaves the document as it was. A broken promise is a
/// `fatalError`: in a fuzz target a crash is how a finding is reported.
@_cdecl("FuzzSharedDocument_main")
public func entry(argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzMain(argc: argc, argv: argv) { start, count in
        fuzzOne(Array(fuzzInput(start, count)))
        return 0
    }
}

/// A document with a map, an array and text, written once and read by every input.
private let populated: [UInt8] = {
    let document = SharedDocument(clientID: 7)
    do {
        try document.map("m").set("k", .string("v"))
        try document.array("a").push([.int(1), .double(2.5)])
        try document.text("t").insert("hello", at: 0)
        // Text in every form `TextUnits` holds (inline ASCII, long ASCII, UTF-16 with surrogate
        // pairs at odd and even clocks), so inputs that name client 7's clocks cut all of them.
        try document.text("t").insert("😀é𝄞" + String(repeating: "long ascii ", count: 3) + "x😀\u{0}", at: 5)
        return try document.encodeStateAsUpdate()
    } catch {
        fatalError("the seed document could not be built: \(error)")
    }
}()

private func fuzzOne(_ bytes: [UInt8]) {
    let document = SharedDocument(clientID: 500)
    _ = try? document.applyUpdate(populated)
    guard let before = try? document.encodeStateAsUpdate() else { return }
    do {
        try document.applyUpdate(bytes)
        guard let after = try? document.encodeStateAsUpdate() else { fatalError("an accepted update left a document that does not encode") }
        let copy = SharedDocument(clientID: 501)
        do { try copy.applyUpdate(after) } catch { fatalError("a document's own encoding was refused: \(error)") }
        document.inferRootKinds()
        _ = try? document.toJSON()
    } catch {
        if (try? document.encodeStateAsUpdate()) != before { fatalError("a refused update (\(error)) changed the document") }
    }
    let fresh = SharedDocument(clientID: 502)
    _ = try? fresh.applyUpdate(bytes)
    _ = try? Updates.merge([bytes, populated])
    _ = try? Updates.diff(bytes, stateVector: [])
    _ = try? Updates.encodeStateVectorFromUpdate(bytes)
}
