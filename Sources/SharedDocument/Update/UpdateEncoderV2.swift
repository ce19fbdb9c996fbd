import StateHubJSON

/// Writes structs and a delete set as a Yjs v2 update (docs/shared-document.md, "The v2
/// update format"): Yjs 13.5.43's `UpdateEncoderV2` behind its `LazyStructWriter`, so
/// consecutive structs of one client form one group, as `convertUpdateFormatV1ToV2` writes.
struct UpdateEncoderV2: ~Copyable {
    private var keyClock = IntDiffOptRleColumn.Encoder()
    private var client = UintOptRleColumn.Encoder()
    private var leftClock = IntDiffOptRleColumn.Encoder()
    private var rightClock = IntDiffOptRleColumn.Encoder()
    private var info = RleByteColumn.Encoder()
    private var strings = StringColumn.Encoder()
    private var parentInfo = RleByteColumn.Encoder()
    private var typeRef = UintOptRleColumn.Encoder()
    private var length = UintOptRleColumn.Encoder()
    /// The rest of the current client group: its first clock, Skip lengths, values.
    private var rest = ByteWriter()
    /// Finished groups: struct count and rest bytes.
    private var groups: [(count: Int, rest: [UInt8])] = []
    private var currentClient = 0
    private var written = 0
    /// Yjs numbers each key it writes anew and never reuses a number (`writeKey`).
    private var nextKey = 0

    /// The whole update `decoded` holds, as v2.
    static func encode(_ decoded: DecodedUpdate) throws(UpdateDecodingError) -> [UInt8] {
        var encoder = UpdateEncoderV2()
        for entry in decoded.clients {
            for wire in entry.structs { try encoder.write(wire) }
        }
        return try encoder.finish(deleteSet: decoded.deleteSet)
    }

    /// A struct read from an update (a v1 reader keeps a map entry's key only where the
    /// update carries it, so an entry with a neighbour is written without its key bit, as
    /// Yjs's conversions write it).
    mutating func write(_ wire: WireStruct) throws(UpdateDecodingError) {
        startStruct(client: wire.id.client, clock: wire.id.clock)
        switch wire.kind {
        case .gc:
            info.write(0)
            length.write(wire.length)
        case .skip:
            info.write(10)
            rest.writeVarUint(wire.length)
        case .item:
            guard let content = wire.content else { throw UpdateDecodingError(.invalidStructure("item \(wire.id) without content"), at: 0) }
            try writeItem(id: wire.id, origin: wire.origin, rightOrigin: wire.rightOrigin, parent: wire.parent, parentSub: wire.parentSub, content: content, offset: 0)
        }
    }

    /// A document's struct from `offset` (Yjs's `Item.write`, `GC.write`): a map entry keeps
    /// its key bit whether or not the key is written.
    mutating func write(_ item: Item, offset: Int) throws(UpdateDecodingError) {
        startStruct(client: item.id.client, clock: item.id.clock + offset)
        if item.isGC {
            info.write(0)
            length.write(item.length - offset)
            return
        }
        if item.isSkip {
            info.write(10)
            rest.writeVarUint(item.length - offset)
            return
        }
        let origin = offset > 0 ? ID(client: item.id.client, clock: item.id.clock + offset - 1) : item.origin
        let rightOrigin = item.rightOrigin
        let parent = origin == nil && rightOrigin == nil ? item.parentOnWire : .none
        try writeItem(id: item.id, origin: origin, rightOrigin: rightOrigin, parent: parent, parentSub: item.parentSub, content: item.content, offset: offset)
    }

    /// Groups consecutive structs of one client (Yjs's `writeStructToLazyStructWriter`).
    private mutating func startStruct(client structClient: Int, clock: Int) {
        if written > 0 && currentClient != structClient { flush() }
        if written == 0 {
            currentClient = structClient
            client.write(structClient)
            rest.writeVarUint(clock)
        }
        written += 1
    }

    private mutating func writeItem(id: ID, origin: ID?, rightOrigin: ID?, parent: WireStruct.Parent, parentSub: String?, content: ItemContent, offset: Int) throws(UpdateDecodingError) {
        var bits = content.ref & 0x1F
        if origin != nil { bits |= 0x80 }
        if rightOrigin != nil { bits |= 0x40 }
        if parentSub != nil { bits |= 0x20 }
        info.write(bits)
        if let origin {
            client.write(origin.client)
            leftClock.write(origin.clock)
        }
        if let rightOrigin {
            client.write(rightOrigin.client)
            rightClock.write(rightOrigin.clock)
        }
        if origin == nil && rightOrigin == nil {
            switch parent {
            case .root(let name):
                parentInfo.write(1)
                strings.write(name)
            case .item(let id):
                parentInfo.write(0)
                client.write(id.client)
                leftClock.write(id.clock)
            case .none:
                // Not reachable for a well-formed struct; written as the empty root name, as v1.
                parentInfo.write(1)
                strings.write("")
            }
            if let parentSub { strings.write(parentSub) }
        }
        try writeContent(content, of: id, offset: offset)
    }

    /// Content by ref, v2's columns for each. A sub-document (ref 9) is `strings.write(guid)` and
    /// `rest.writeAny(options)`, as Yjs's `ContentDoc.write`.
    private mutating func writeContent(_ content: ItemContent, of id: ID, offset: Int) throws(UpdateDecodingError) {
        switch content {
        case .deleted(let count): length.write(count - offset)
        case .json(let values):
            length.write(values.count - offset)
            for value in values[offset...] { strings.write(value) }
        case .binary(let data): rest.writeVarBytes(data)
        case .string(let units): strings.write(units, from: offset)
        case .embed(let json): rest.writeAny(try Self.value(ofJSON: json, what: "embed", of: id))
        case .format(let key, let value):
            writeKey(key)
            rest.writeAny(try Self.value(ofJSON: value, what: "format value", of: id))
        case .type(let type):
            typeRef.write(type.kind.ref)
            switch type.kind {
            case .xmlElement(let name), .xmlHook(let name): writeKey(name)
            default: break
            }
        case .any(let values):
            length.write(values.count - offset)
            values.write(to: &rest, from: offset)
        case .doc(let reference):
            strings.write(reference.guid)
            rest.writeAny(reference.options)
        }
    }

    private mutating func writeKey(_ key: String) {
        keyClock.write(nextKey)
        nextKey += 1
        strings.write(key)
    }

    /// An embed or format value, kept as JSON text, as the value v2 writes (`JSON.parse`).
    private static func value(ofJSON text: String, what: String, of id: ID) throws(UpdateDecodingError) -> YValue {
        if text == "undefined" { return .undefined }
        guard let parsed = try? JSONParser().parse(text) else {
            throw UpdateDecodingError(.invalidStructure("the \(what) of item \(id) is not JSON, which v2 cannot carry"), at: 0)
        }
        return SharedType.value(ofJSON: parsed)
    }

    private mutating func flush() {
        guard written > 0 else { return }
        groups.append((written, rest.bytes))
        rest = ByteWriter()
        written = 0
    }

    /// The update: columns, then the groups and the delete set (ranges sorted, none empty:
    /// v2 writes each range's distance from the previous one's end).
    consuming func finish(deleteSet: DeleteSet) throws(UpdateDecodingError) -> [UInt8] {
        flush()
        var tail = ByteWriter()
        tail.writeVarUint(groups.count)
        for group in groups {
            tail.writeVarUint(group.count)
            tail.writeBytes(group.rest)
        }
        tail.writeVarUint(deleteSet.clients.count)
        for client in deleteSet.clients {
            let ranges = deleteSet.ranges[client] ?? []
            tail.writeVarUint(client)
            tail.writeVarUint(ranges.count)
            var end = 0
            for range in ranges {
                guard range.clock >= end, range.length > 0 else {
                    throw UpdateDecodingError(.invalidStructure("delete set of client \(client): ranges overlap, are out of order or empty, which v2 cannot carry"), at: 0)
                }
                tail.writeVarUint(range.clock - end)
                tail.writeVarUint(range.length - 1)
                end = range.clock + range.length
            }
        }
        var out = ByteWriter()
        out.writeVarUint(0)
        out.writeVarBytes(keyClock.finish())
        out.writeVarBytes(client.finish())
        out.writeVarBytes(leftClock.finish())
        out.writeVarBytes(rightClock.finish())
        out.writeVarBytes(info.finish())
        out.writeVarBytes(strings.finish())
        out.writeVarBytes(parentInfo.finish())
        out.writeVarBytes(typeRef.finish())
        out.writeVarBytes(length.finish())
        out.writeBytes(tail.bytes)
        return out.bytes
    }
}
