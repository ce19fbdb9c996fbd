// The document-free functions on v2 updates. Yjs's `mergeUpdatesV2` and `diffUpdateV2` run
// the algorithm of `mergeUpdates` and `diffUpdate` over the same structs, so these convert to
// v1, run v1's functions and convert back (docs/shared-document.md, "The v2 update format").

extension Updates {
    /// The format to read `update` as. A v1 update read to its last byte is v1 (a v2 update's
    /// leading zero also reads as the start of an empty v1 update); otherwise an update that
    /// reads as v2 is v2. An update that reads as neither gets the format its framing suggests
    /// (v2: a zero, then nine length-prefixed columns that fit), so that format's reader says
    /// what is wrong with it.
    public static func format(of update: [UInt8]) -> UpdateFormat {
        var reader = ByteReader(update)
        if (try? DecodedUpdate.readStructs(&reader)) != nil, (try? DeleteSet.read(from: &reader)) != nil, reader.isAtEnd { return .v1 }
        if (try? UpdateDecoderV2.read(update)) != nil { return .v2 }
        return DecodedUpdate.isFormatV2(update) ? .v2 : .v1
    }

    /// A v1 update written as v2, struct for struct (Yjs `convertUpdateFormatV1ToV2`).
    ///
    /// - Throws: ``UpdateDecodingError`` for malformed input, and `invalidStructure` for what
    ///   v2 cannot carry: an embed or format value that is not JSON text, delete-set ranges out
    ///   of order or empty.
    public static func convertV1ToV2(_ update: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        try UpdateEncoderV2.encode(try DecodedUpdate.read(update))
    }

    /// A v2 update written as v1, struct for struct (Yjs `convertUpdateFormatV2ToV1`).
    public static func convertV2ToV1(_ update: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        let decoded = try UpdateDecoderV2.read(update)
        var writer = LazyWriter()
        for entry in decoded.clients {
            for wire in entry.structs { writer.write(wire, offset: 0) }
        }
        var out = writer.finish()
        decoded.deleteSet.write(to: &out)
        return out.bytes
    }

    /// One v2 update with everything the given v2 updates hold (Yjs `mergeUpdatesV2`).
    public static func mergeV2(_ updates: [[UInt8]]) throws(UpdateDecodingError) -> [UInt8] {
        if updates.count == 1 { return updates[0] }
        var converted: [[UInt8]] = []
        converted.reserveCapacity(updates.count)
        for update in updates { converted.append(try convertV2ToV1(update)) }
        return try convertV1ToV2(try merge(converted))
    }

    /// What the v2 `update` holds beyond `stateVector`, as v2 (Yjs `diffUpdateV2`).
    public static func diffV2(_ update: [UInt8], stateVector: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        try convertV1ToV2(try diff(try convertV2ToV1(update), stateVector: stateVector))
    }

    /// The state vector a v2 update brings on its own (Yjs `encodeStateVectorFromUpdateV2`).
    public static func encodeStateVectorFromUpdateV2(_ update: [UInt8]) throws(UpdateDecodingError) -> [UInt8] {
        try encodeStateVectorFromUpdate(try convertV2ToV1(update))
    }
}
