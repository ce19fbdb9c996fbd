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
