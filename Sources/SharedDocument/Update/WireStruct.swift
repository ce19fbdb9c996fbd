/// A struct as an update carries it, before (or without) a document.
struct WireStruct {
    enum Kind: UInt8 { case gc, skip, item }
    enum Parent {
        case none
        case root(String)
        case item(ID)
    }

    var kind: Kind
    var id: ID
    var length: Int
    var origin: ID?
    var rightOrigin: ID?
    var parent: Parent
    var parentSub: String?
    var content: ItemContent?

    var end: Int { id.clock + length }

    /// The right part from `offset` on (Yjs's `sliceStruct`).
    func sliced(from offset: Int) -> WireStruct {
        var copy = self
        copy.id.clock += offset
        copy.length -= offset
        if kind == .item, var content {
            copy.origin = ID(client: id.client, clock: id.clock + offset - 1)
            copy.content = content.splice(at: offset)
        }
        return copy
    }

    /// Writes this struct from `offset` (Yjs's `write(encoder, offset)`).
    func write(to writer: inout ByteWriter, offset: Int) {
        switch kind {
        case .gc:
            writer.write(0)
            writer.writeVarUint(length - offset)
        case .skip:
            writer.write(10)
            writer.writeVarUint(length - offset)
        case .item:
            guard let content else { return }
            let origin = offset > 0 ? ID(client: id.client, clock: id.clock + offset - 1) : self.origin
            writeItem(to: &writer, origin: origin, rightOrigin: rightOrigin, parent: parent, parentSub: parentSub, content: content, offset: offset)
        }
    }
}

/// The item encoding both documents and wire structs use.
func writeItem(to writer: inout ByteWriter, origin: ID?, rightOrigin: ID?, parent: WireStruct.Parent, parentSub: String?, content: ItemContent, offset: Int) {
    var info = content.ref & 0x1F
    if origin != nil { info |= 0x80 }
    if rightOrigin != nil { info |= 0x40 }
    if parentSub != nil { info |= 0x20 }
    writer.write(info)
    if let origin { writer.writeVarUint(origin.client); writer.writeVarUint(origin.clock) }
    if let rightOrigin { writer.writeVarUint(rightOrigin.client); writer.writeVarUint(rightOrigin.clock) }
    if origin == nil && rightOrigin == nil {
        switch parent {
        case .root(let name):
            writer.writeVarUint(1)
            writer.writeString(name)
        case .item(let id):
            writer.writeVarUint(0)
            writer.writeVarUint(id.client)
            writer.writeVarUint(id.clock)
        case .none:
            // Not reachable for a well-formed struct; written as the empty root name.
            writer.writeVarUint(1)
            writer.writeString("")
        }
        if let parentSub { writer.writeString(parentSub) }
    }
    writeContent(content, to: &writer, offset: offset)
}

func writeContent(_ content: ItemContent, to writer: inout ByteWriter, offset: Int) {
    switch content {
    case .deleted(let count): writer.writeVarUint(count - offset)
    case .json(let values):
        writer.writeVarUint(values.count - offset)
        for value in values[offset...] { writer.writeString(value) }
    case .binary(let data): writer.writeVarBytes(data)
    case .string(let units): units.write(from: offset, to: &writer)
    case .embed(let json): writer.writeString(json)
    case .format(let key, let value):
        writer.writeString(key)
        writer.writeString(value)
    case .type(let type):
        writer.writeVarUint(type.kind.ref)
        switch type.kind {
        case .xmlElement(let name), .xmlHook(let name): writer.writeString(name)
        default: break
        }
    case .any(let values):
        writer.writeVarUint(values.count - offset)
        values.write(to: &writer, from: offset)
    case .doc(let reference):
        writer.writeString(reference.guid)
        writer.writeAny(reference.options)
    }
}

/// The structs of one client in an update: consecutive clocks from `clock`.
struct WireClientStructs {
    var client: Int
    var structs: [WireStruct]
}

/// A whole v1 update, read and checked.
struct DecodedUpdate {
    var clients: [WireClientStructs]
    var deleteSet: DeleteSet

    static func read(_ bytes: [UInt8]) throws(UpdateDecodingError) -> DecodedUpdate {
        var reader = ByteReader(bytes)
        let clients: [WireClientStructs]
        let deleteSet: DeleteSet
        do {
            clients = try readStructs(&reader)
            deleteSet = try DeleteSet.read(from: &reader)
        } catch {
            if isFormatV2(bytes) { throw UpdateDecodingError(.formatV2, at: 0) }
            throw error
        }
        // Yjs ignores trailing bytes, and so do we, except when the whole input is a v2
        // update: its leading zero also reads as an empty v1 update, which would show an
        // empty document instead of saying what the bytes are.
        if !reader.isAtEnd, isFormatV2(bytes) { throw UpdateDecodingError(.formatV2, at: 0) }
        return DecodedUpdate(clients: clients, deleteSet: deleteSet)
    }

    /// Whether `bytes` are framed as a Yjs v2 update (`encodeStateAsUpdateV2`): a zero
    /// feature flag, nine length-prefixed column buffers that fit, then the rest encoder's
    /// bytes (at least a struct count and a delete-set count).
    static func isFormatV2(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0 else { return false }
        var reader = ByteReader(bytes, position: 1)
        for _ in 0..<9 {
            guard let length = try? reader.readVarUint(), length <= reader.remaining else { return false }
            reader = ByteReader(bytes, position: reader.position + length)
        }
        return reader.remaining >= 2
    }

    static func readStructs(_ reader: inout ByteReader) throws(UpdateDecodingError) -> [WireClientStructs] {
        let clientCount = try reader.readCount(minimumSize: 3)
        var result: [WireClientStructs] = []
        result.reserveCapacity(clientCount)
        for _ in 0..<clientCount {
            let structCount = try reader.readCount(minimumSize: 2)
            let client = try reader.readVarUint()
            var clock = try reader.readVarUint()
            var structs: [WireStruct] = []
            structs.reserveCapacity(structCount)
            for _ in 0..<structCount {
                let start = reader.position
                let info = try reader.readByte()
                let wire: WireStruct
                switch info & 0x1F {
                case 0:
                    let length = try reader.readVarUint()
                    wire = WireStruct(kind: .gc, id: ID(client: client, clock: clock), length: length, parent: .none)
                case 10:
                    let length = try reader.readVarUint()
                    wire = WireStruct(kind: .skip, id: ID(client: client, clock: clock), length: length, parent: .none)
                default:
                    let origin: ID? = info & 0x80 != 0 ? ID(client: try reader.readVarUint(), clock: try reader.readVarUint()) : nil
                    let rightOrigin: ID? = info & 0x40 != 0 ? ID(client: try reader.readVarUint(), clock: try reader.readVarUint()) : nil
                    var parent = WireStruct.Parent.none
                    var parentSub: String?
                    if info & 0xC0 == 0 {
                        if try reader.readVarUint() == 1 {
                            parent = .root(try reader.readString())
                        } else {
                            parent = .item(ID(client: try reader.readVarUint(), clock: try reader.readVarUint()))
                        }
                        if info & 0x20 != 0 { parentSub = try reader.readString() }
                    }
                    let content = try readContent(&reader, ref: Int(info & 0x1F))
                    wire = WireStruct(kind: .item, id: ID(client: client, clock: clock), length: content.length, origin: origin, rightOrigin: rightOrigin, parent: parent, parentSub: parentSub, content: content)
                }
                try append(wire, to: &structs, clock: &clock, readAt: start)
            }
            result.append(WireClientStructs(client: client, structs: structs))
        }
        return result
    }

    /// Appends a struct read at byte `start` and moves `clock` past it: no struct is empty,
    /// no clock reaches 2⁵³ (both formats' readers).
    static func append(_ wire: WireStruct, to structs: inout [WireStruct], clock: inout Int, readAt start: Int) throws(UpdateDecodingError) {
        guard wire.length > 0 else { throw UpdateDecodingError(.invalidStructure("struct of length 0"), at: start) }
        clock += wire.length
        guard clock < 1 << 53 else { throw UpdateDecodingError(.overflow, at: start) }
        structs.append(wire)
    }

    static func readContent(_ reader: inout ByteReader, ref: Int) throws(UpdateDecodingError) -> ItemContent {
        switch ref {
        case 1:
            let count = try reader.readVarUint()
            return .deleted(count)
        case 2:
            let count = try reader.readCount()
            var values: [String] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(try reader.readString()) }
            return .json(values)
        case 3: return .binary(try reader.readVarBytes())
        case 4: return .string(try reader.readText())
        case 5: return .embed(try reader.readString())
        case 6:
            let key = try reader.readString()
            return .format(key: key, value: try reader.readString())
        case 7:
            let typeRef = try reader.readVarUint()
            guard let kind = try SharedTypeKind(ref: typeRef, name: { () throws(UpdateDecodingError) in try reader.readString() }) else {
                throw reader.error(.unknownTypeRef(typeRef))
            }
            return .type(SharedType(kind: kind))
        case 8:
            let count = try reader.readCount()
            // Packed while every value is a 32-bit integer (``AnyValues``), without building
            // the `YValue`s first.
            var ints: [Int32] = []
            ints.reserveCapacity(count)
            while ints.count < count {
                let value = try reader.readAny()
                guard case .int(let number) = value, let packed = Int32(exactly: number) else {
                    var values = ints.map { YValue.int(Int64($0)) }
                    values.reserveCapacity(count)
                    values.append(value)
                    while values.count < count { values.append(try reader.readAny()) }
                    return .any(AnyValues(values))
                }
                ints.append(packed)
            }
            return .any(AnyValues(packed: ints))
        case 9:
            let guid = try reader.readString()
            let start = reader.position
            guard let reference = SubDocumentReference(guid: guid, yjsOptions: try reader.readAny()) else {
                throw UpdateDecodingError(.invalidStructure("sub-document options Yjs cannot read (null, undefined, or a guid that is not a string)"), at: start)
            }
            return .doc(reference)
        default: throw reader.error(.unknownContentRef(ref))
        }
    }
}

extension SharedTypeKind {
    /// The kind a type ref names; `name` reads an XML element's or hook's name (a string in
    /// v1, a key in v2). Nil for a ref Yjs does not define.
    init?(ref: Int, name: () throws(UpdateDecodingError) -> String) throws(UpdateDecodingError) {
        switch ref {
        case 0: self = .array
        case 1: self = .map
        case 2: self = .text
        case 3: self = .xmlElement(try name())
        case 4: self = .xmlFragment
        case 5: self = .xmlHook(try name())
        case 6: self = .xmlText
        default: return nil
        }
    }
}
