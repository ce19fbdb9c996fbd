import JSEngine

// The framework payloads and results as TypeScript, for `statehub types --bridge-ts`
// (docs/types.md, "Bridge declarations"); each mirrors the type's decoding (docs/PROTOCOL.md B.4).

extension EmptyPayload: BridgeTypeDescribing {
    public static var typeScript: String { "Record<string, never>" }
}

extension ShowAlertPayload: BridgeTypeDescribing {
    public static var typeScript: String { "{ title?: string | null; message: string; buttons?: string[] | null }" }
}

extension ShowAlertResult: BridgeTypeDescribing {
    public static var typeScript: String { "{ index: number }" }
}

extension DidFailLoadingPayload: BridgeTypeDescribing {
    public static var typeScript: String { "{ message: string; code?: string | null }" }
}

extension GotoWebviewPayload: BridgeTypeDescribing {
    public static var typeScript: String { "{ url: string; title?: string | null }" }
}

extension GotoNativePayload: BridgeTypeDescribing {
    public static var typeScript: String { "{ page: string; params?: Record<string, unknown> | null }" }
}

extension DoActionPayload: BridgeTypeDescribing {
    public static var typeScript: String { "{ action: 'back' | 'reload' | 'share'; text?: string | null; url?: string | null }" }
}

extension ConfigNativePayload: BridgeTypeDescribing {
    public static var typeScript: String {
        "{ configs: Array<{ type: 'nav_item_right'; title?: string | null; icon_url?: string | null; action: string; action_parameters?: Record<string, unknown> | null } | { type: 'title'; title: string | null }> }"
    }
}
