/// `configNative` payload: `{"configs":[…]}` (B.4).
public struct ConfigNativePayload: Decodable, Sendable, Hashable {
    public var configs: [NativeConfig]
}
