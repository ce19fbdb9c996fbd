import JSEngine
import Observation

/// A store's mirrored state decoded as a `Codable` type, for SwiftUI and async code.
///
/// Decoded on the main actor at each (coalesced) update, with tagged values untagged first
/// (see `TaggedValue`), or, for a type that reads the tagged forms (one `statehub types`
/// generated: `TaggedDate`, `TaggedMap`, `TaggedSet`, `TaggedBigInt`), as
/// `JSONValue.decodeMirror(_:)` decodes. A state that does not decode leaves `value` at its last good
/// decoding and sets `decodingError`, naming the coding path; it never traps.
@MainActor
@Observable
public final class TypedMirror<Value: Decodable & Sendable>: StoreObserver {
    public let storeId: String
    /// The last state that decoded; `nil` before the first or while the store is absent.
    public private(set) var value: Value?
    /// Why the newest state did not decode; `nil` when it did.
    public private(set) var decodingError: String?
    public private(set) var version: Int

    init(storeId: String, state: JSONValue?, version: Int) {
        self.storeId = storeId
        self.version = version
        storeDidChange(state: state, version: version)
    }

    func storeDidChange(state: JSONValue?, version: Int) {
        self.version = version
        guard let state else {
            value = nil
            decodingError = nil
            return
        }
        do {
            value = try decode(state)
            decodingError = nil
        } catch {
            decodingError = String(describing: error)
        }
    }

    /// Whether `Value` reads the mirror's tagged forms (a type `statehub types` generated, with
    /// `TaggedDate`, `TaggedMap`…), learnt from the first state that decoded only that way.
    private var readsTaggedForms = false

    /// Untagged first (hand-written types: `Date`, dictionaries, arrays); then the mirror as it
    /// is, as `JSONValue.decodeMirror(_:)` reads it for generated types (docs/types.md). The
    /// error of the form that has worked before, else the untagged one's, is what is reported.
    private func decode(_ state: JSONValue) throws -> Value {
        if readsTaggedForms { return try state.decodeMirror(Value.self) }
        do {
            return try state.untagged().decode(Value.self, decoder: TaggedValue.decoder)
        } catch {
            guard let value = try? state.decodeMirror(Value.self) else { throw error }
            readsTaggedForms = true
            return value
        }
    }
}
