/// The TypeScript types of one registered bridge action, as `--bridge-ts` declares them.
public struct BridgeActionTypes: Sendable, Hashable {
    public var action: String
    /// The payload's type; `unknown` when the handler did not say.
    public var payload: String
    /// The result's type (`invokeNative` resolves with it); `unknown` when the handler did not say.
    public var result: String

    public init(action: String, payload: String, result: String) {
        self.action = action
        self.payload = payload
        self.result = result
    }

    static func typeScript<T>(of type: T.Type) -> String? {
        (type as? any BridgeTypeDescribing.Type)?.typeScript
    }
}
