import JSEngine

/// A payload or result type that says what it looks like in TypeScript, so `statehub types
/// --bridge-ts` can declare `invokeNative(action, payload)` typed for a page (docs/types.md,
/// "Bridge declarations").
///
/// Conform a handler's payload and result types; a handler whose types do not conform is
/// declared with `unknown`, unless ``BridgeHost/describe(_:payload:result:)`` names them.
///
/// ```swift
/// extension ScanPayload: BridgeTypeDescribing {
///     public static var typeScript: String { "{ format: 'qr' | 'ean13'; prompt?: string | null }" }
/// }
/// ```
public protocol BridgeTypeDescribing {
    /// A TypeScript type expression (an object literal type, a union, a primitive).
    static var typeScript: String { get }
}

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
