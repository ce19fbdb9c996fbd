import JSEngine
import Observation

/// A store's mirrored state decoded as a `Codable` type, for SwiftUI and async code.
///
/// Decoded on the main actor at each (coalesced) update, with tagged values untagged first
/// (see `TaggedValue`). A state that does not decode leaves `value` at its last good
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
            value = try state.untagged().decode(Value.self, decoder: TaggedValue.decoder)
            decodingError = nil
        } catch {
            decodingError = String(describing: error)
        }
    }
}
