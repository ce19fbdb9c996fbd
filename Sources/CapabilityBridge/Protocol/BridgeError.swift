/// A coded failure of one bridge call, as the page receives it: `{ code, message }`.
///
/// Handlers throw it to choose the code a page sees; any other error a handler throws
/// becomes ``BridgeErrorCode/handlerFailed`` with the error's description as message.
public struct BridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The protocol code.
    public var code: BridgeErrorCode
    /// Human-readable detail; for `bad_payload` it names the field (`"showAlert: payload.message: expected String"`).
    public var message: String

    public init(_ code: BridgeErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}
