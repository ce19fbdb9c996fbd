import StateHubJSON

/// The message `flush: 'sync'` posts for one untagged write, as the hub's write path needs it
/// (docs/hub.md, "A flush-sync write"): the store id and the mutation's type left as byte ranges
/// of the message, the path read into a buffer the page's receiver reuses, and no `StoreMessage`.
///
/// Read by ``StoreMessageDecoder/readSingleSet(utf8:path:)`` only where ``StoreMessageDecoder``'s
/// one-set matcher would read the same fields (DecoderDifferentialTests): the message id and the
/// `ack` are checked as that matcher checks them but not kept, since a write a page alone hosts
/// needs neither; anything that would need them goes to the general path.
struct SingleSetWrite {
    /// The store id's bytes in the message, between its quotes (no escapes).
    var storeId: Range<Int>
    var seq: Int
    /// Pinia's mutation type's bytes in the message, between its quotes (no escapes).
    var mutationType: Range<Int>
    var value: JSONValue
    /// The getters the write changed (docs/PROTOCOL.md A.13), `nil` when the message carries none.
    var getters: JSONValue.ObjectMembers?
}
