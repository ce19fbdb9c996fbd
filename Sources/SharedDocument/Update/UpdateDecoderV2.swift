/// Reads a Yjs v2 update into the form v1's reader gives (``DecodedUpdate``): Yjs 13.5.43's
/// `UpdateDecoderV2` with `readClientsStructRefs` and `readDeleteSet` (docs/shared-document.md,
/// "The v2 update format").
///
/// Column runs expand, so a few bytes could claim billions of values: at most
/// ``maximumValuesPerByte`` structs, JSON entries and `Any` values per byte of input (and
/// never fewer than ``minimumValueBudget``) are read; more is `invalidLength` before anything
/// is kept for them.
struct UpdateDecoderV2 {
    /// The expansion bound. Yjs's updates of edited documents hold about one struct per byte
    /// or less (`UpdateV2DifferentialTests` checks its random histories against it).
    static let maximumValuesPerByte = 8
    /// What any update may read, however small: a uniform chain compresses to almost nothing
    /// (arrays nested 10,000 deep are 32 bytes of v2).
    static let minimumValueBudget = 65_536

    private var keyClock: IntDiffOptRleColumn.Decoder
    private var client: UintOptRleColumn.Decoder
    private var leftClock: IntDiffOptRleColumn.Decoder
    private var rightClock: IntDiffOptRleColumn.Decoder
    private var info: RleByteColumn.Decoder
    private var strings: StringColumn.Decoder
    private var parentInfo: RleByteColumn.Decoder
    private var typeRef: UintOptRleColumn.Decoder
    private var length: UintOptRleColumn.Decoder
    private var rest: ByteReader
    /// Keys read so far (format keys, XML names): a key number below their count names one.
    private var keys: [String] = []
    /// Values that may still be read (``maximumValuesPerByte``).
    private var budget: Int

    static func read(_ bytes: [UInt8]) throws(UpdateDecodingError) -> DecodedUpdate {
        var decoder = try UpdateDecoderV2(bytes)
        let clients = try decoder.readStructs()
        let deleteSet = try decoder.readDeleteSet()
        return DecodedUpdate(clients: clients, deleteSet: deleteSet)
    }

    private init(_ bytes: [UInt8]) throws(UpdateDecodingError) {
        var reader = ByteReader(bytes)
        _ = try reader.readVarUint()  // the feature flag: 0, unused (Yjs does not check it)
        func column() throws(UpdateDecodingError) -> ColumnReader {
            let count = try reader.readVarUint()
            let start = reader.position
            return ColumnReader(try reader.readBytes(count), base: start)
        }
        keyClock = IntDiffOptRleColumn.Decoder(try column(), name: "key number")
        client = UintOptRleColumn.Decoder(try column())
        leftClock = IntDiffOptRleColumn.Decoder(try column(), name: "left clock")
        rightClock = IntDiffOptRleColumn.Decoder(try column(), name: "right clock")
        info = RleByteColumn.Decoder(try column())
        strings = try StringColumn.Decoder(try column())
        parentInfo = RleByteColumn.Decoder(try column())
        typeRef = UintOptRleColumn.Decoder(try column())
        length = UintOptRleColumn.Decoder(try column())
        rest = reader
        budget = max(bytes.count * Self.maximumValuesPerByte, Self.minimumValueBudget)
    }

    /// Takes `count` values from the budget.
    private mutating func spend(_ count: Int) throws(UpdateDecodingError) {
        guard count <= budget else { throw rest.error(.invalidLength) }
        budget -= count
    }

    private mutating func readClient() throws(UpdateDecodingError) -> Int {
        let value = try client.read()
        guard value < 1 << 53 else { throw rest.error(.overflow) }
        return value
    }

    private mutating func readLeftID() throws(UpdateDecodingError) -> ID {
        ID(client: try readClient(), clock: try leftClock.read())
    }

    private mutating func readRightID() throws(UpdateDecodingError) -> ID {
        ID(client: try readClient(), clock: try rightClock.read())
    }

    private mutating func readKey() throws(UpdateDecodingError) -> String {
        let number = try keyClock.read()
        if number < keys.count { return keys[number] }
        let key = try strings.readString()
        keys.append(key)
        return key
    }

    private mutating func readStructs() throws(UpdateDecodingError) -> [WireClientStructs] {
        // A group takes at least two bytes of the rest (its struct count and first clock).
        let groupCount = try rest.readCount(minimumSize: 2)
        var result: [WireClientStructs] = []
        result.reserveCapacity(groupCount)
        for _ in 0..<groupCount {
            let structCount = try rest.readVarUint()
            try spend(structCount)
            let clientID = try readClient()
            var clock = try rest.readVarUint()
            var structs: [WireStruct] = []
            // Only what the rest could hold is reserved ahead: the structs are read one by one.
            structs.reserveCapacity(min(structCount, rest.remaining + 16))
            for _ in 0..<structCount {
                let start = rest.position
                let bits = try info.read()
                let id = ID(client: clientID, clock: clock)
                let wire: WireStruct
                switch bits & 0x1F {
                case 0:
                    wire = WireStruct(kind: .gc, id: id, length: try length.read(), parent: .none)
                case 10:
                    wire = WireStruct(kind: .skip, id: id, length: try rest.readVarUint(), parent: .none)
                default:
                    let origin: ID? = try bits & 0x80 != 0 ? readLeftID() : nil
                    let rightOrigin: ID? = try bits & 0x40 != 0 ? readRightID() : nil
                    var parent = WireStruct.Parent.none
                    var parentSub: String?
                    if bits & 0xC0 == 0 {
                        parent = try parentInfo.read() == 1 ? .root(strings.readString()) : .item(readLeftID())
                        if bits & 0x20 != 0 { parentSub = try strings.readString() }
                    }
                    let content = try readContent(ref: Int(bits & 0x1F))
                    wire = WireStruct(kind: .item, id: id, length: content.length, origin: origin, rightOrigin: rightOrigin, parent: parent, parentSub: parentSub, content: content)
                }
                try DecodedUpdate.append(wire, to: &structs, clock: &clock, readAt: start)
            }
            result.append(WireClientStructs(client: clientID, structs: structs))
        }
        return result
    }

    /// Content by ref, from v2's columns. A sub-document (ref 9) is `strings.readString()` (the
    /// guid) and `rest.readAny()` (the options), as Yjs's `readContentDoc`.
    private mutating func readContent(ref: Int) throws(UpdateDecodingError) -> ItemContent {
        switch ref {
        case 1: return .deleted(try length.read())
        case 2:
            let count = try length.read()
            try spend(count)
            var values: [String] = []
            for _ in 0..<count { values.append(try strings.readString()) }
            return .json(values)
        case 3: return .binary(try rest.readVarBytes())
        case 4: return .string(TextUnits(try strings.readUnits()))
        case 5: return .embed(try rest.readAny().jsonString())
        case 6:
            let key = try readKey()
            return .format(key: key, value: try rest.readAny().jsonString())
        case 7:
            let typeRefValue = try typeRef.read()
            guard let kind = try SharedTypeKind(ref: typeRefValue, name: { () throws(UpdateDecodingError) in try readKey() }) else {
                throw rest.error(.unknownTypeRef(typeRefValue))
            }
            return .type(SharedType(kind: kind))
        case 8:
            let count = try length.read()
            try spend(count)
            var values: [YValue] = []
            for _ in 0..<count { values.append(try rest.readAny()) }
            return .any(AnyValues(values))
        case 9:
            let guid = try strings.readString()
            guard let reference = SubDocumentReference(guid: guid, yjsOptions: try rest.readAny()) else {
                throw rest.error(.invalidStructure("sub-document options Yjs cannot read (null, undefined, or a guid that is not a string)"))
            }
            return .doc(reference)
        default: throw rest.error(.unknownContentRef(ref))
        }
    }

    /// `varuint clients`; per client `varuint client`, `varuint ranges`, then per range the
    /// distance from the previous range's end and `length − 1`.
    private mutating func readDeleteSet() throws(UpdateDecodingError) -> DeleteSet {
        var set = DeleteSet()
        let count = try rest.readCount(minimumSize: 2)
        for _ in 0..<count {
            let clientID = try rest.readVarUint()
            let ranges = try rest.readCount(minimumSize: 2)
            var end = 0
            for _ in 0..<ranges {
                let clock = try end + rest.readVarUint()
                let rangeLength = try rest.readVarUint() + 1
                guard clock + rangeLength < 1 << 53 else { throw rest.error(.overflow) }
                set.add(client: clientID, clock: clock, length: rangeLength)
                end = clock + rangeLength
            }
        }
        return set
    }
}
