/// A sub-document in a map or an array (Yjs's `ContentDoc`, content ref 9).
///
/// A sub-document is a document of its own, synced and stored at its ``guid``; the parent
/// holds only this reference: the guid and the options Yjs writes beside it. A
/// `SharedDocument` never loads the sub-document's content: open a second document for the
/// guid (on a sync server, its own room) to read or edit it.
///
/// The options are kept as Yjs keeps them: a replica reads `gc`, `autoLoad` and `meta` from
/// the update and writes back only those, `gc` when false, `autoLoad` when true, `meta` when
/// not null, in that order. Other keys a writer put there are dropped, by Yjs as here, so
/// every replica encodes the same bytes.
public struct SubDocumentReference: Equatable, Sendable {
    /// The sub-document's identity: the name of its own document (`doc.guid` in Yjs).
    public var guid: String
    /// Whether the sub-document collects garbage (Yjs's `gc` option; true unless set false).
    public var gc: Bool
    /// Whether a replica that receives the reference should load the sub-document at once
    /// (Yjs's `autoLoad`).
    public var autoLoad: Bool
    /// Any value the creator attached (Yjs's `meta`); nil for none.
    public var meta: YValue?

    /// A reference to a new sub-document; the guid defaults to a random UUID, as Yjs's does.
    public init(guid: String = SubDocumentReference.randomGUID(), gc: Bool = true, autoLoad: Bool = false, meta: YValue? = nil) {
        self.guid = guid
        self.gc = gc
        self.autoLoad = autoLoad
        self.meta = meta == .null || meta == .undefined ? nil : meta
    }

    /// The options object as Yjs writes it after the guid (`ContentDoc.opts`).
    public var options: YValue {
        var object = YObject()
        if !gc { object["gc"] = .bool(false) }
        if autoLoad { object["autoLoad"] = .bool(true) }
        if let meta { object["meta"] = meta }
        return .object(object)
    }

    /// The guid and the options in one object, as `statehub doc` shows a sub-document.
    public var jsonValue: YValue {
        var object = YObject()
        object["guid"] = .string(guid)
        if case .object(let options) = options {
            for (key, value) in options { object[key] = value }
        }
        return .object(object)
    }

    /// The reference Yjs builds from a received guid and options (`readContentDoc`:
    /// `new Doc({ guid, ...opts })`): JavaScript's defaults and truthiness decide each option,
    /// and a `guid` among the options replaces the one before them (`undefined` there gives a
    /// random guid, as in Yjs). Options that are not an object carry none. Nil for what Yjs
    /// cannot read: `null` or `undefined` options (Yjs throws), a `guid` option that is not a
    /// string (Yjs would write it as one).
    init?(guid: String, yjsOptions: YValue) {
        switch yjsOptions {
        case .null, .undefined:
            return nil
        case .object(let object):
            var guid = guid
            switch object["guid"] {
            case nil: break
            case .string(let replacement)?: guid = replacement
            case .undefined?: guid = Self.randomGUID()
            default: return nil
            }
            // An absent or undefined `gc` takes the default; anything else counts by truthiness.
            let gcOption = object["gc"] ?? .undefined
            self.init(guid: guid, gc: gcOption == .undefined || gcOption.isTruthy,
                      autoLoad: (object["autoLoad"] ?? .undefined).isTruthy, meta: object["meta"])
        default:
            self.init(guid: guid)
        }
    }

    /// A random version-4 UUID in lowercase, as Yjs's `random.uuidv4()` makes them.
    public static func randomGUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}

extension YValue {
    /// JavaScript's truthiness of the value (`!!value`).
    var isTruthy: Bool {
        switch self {
        case .undefined, .null: false
        case .bool(let flag): flag
        case .int(let number), .bigint(let number): number != 0
        case .double(let number): number != 0 && !number.isNaN
        case .string(let string): !string.isEmpty
        case .bytes, .array, .object: true
        }
    }
}
