import JSEngine

/// A registered handler with its payload and result types erased to JSON.
struct AnyBridgeHandler: Sendable {
    /// Decodes the payload, runs the handler, encodes the result.
    let run: @Sendable (JSONValue, BridgeCallContext) async throws -> JSONValue
    /// Set for handlers registered synchronous: they run inline on the page's thread.
    let runSync: (@Sendable (JSONValue, BridgeCallContext) throws -> JSONValue)?
    /// The payload's and result's TypeScript types when they conform to ``BridgeTypeDescribing``.
    let payloadTypeScript: String?
    let resultTypeScript: String?

    init<P: Decodable & Sendable, R: Encodable & Sendable>(
        action: String, payload: P.Type, result: R.Type,
        handler: @escaping @Sendable (P, BridgeCallContext) async throws -> R
    ) {
        run = { raw, context in
            let decoded = try Self.decode(raw, as: P.self, action: action)
            return try Self.encode(try await handler(decoded, context), action: action)
        }
        runSync = nil
        payloadTypeScript = BridgeActionTypes.typeScript(of: P.self)
        resultTypeScript = BridgeActionTypes.typeScript(of: R.self)
    }

    init<P: Decodable & Sendable, R: Encodable & Sendable>(
        action: String, payload: P.Type, result: R.Type,
        synchronousHandler handler: @escaping @Sendable (P, BridgeCallContext) throws -> R
    ) {
        let sync: @Sendable (JSONValue, BridgeCallContext) throws -> JSONValue = { raw, context in
            let decoded = try Self.decode(raw, as: P.self, action: action)
            return try Self.encode(try handler(decoded, context), action: action)
        }
        runSync = sync
        run = { raw, context in try sync(raw, context) }
        payloadTypeScript = BridgeActionTypes.typeScript(of: P.self)
        resultTypeScript = BridgeActionTypes.typeScript(of: R.self)
    }

    static func decode<P: Decodable>(_ raw: JSONValue, as type: P.Type, action: String) throws -> P {
        if let same = raw as? P { return same }
        do { return try raw.decode(P.self) } catch let error as DecodingError {
            throw BridgeError(.badPayload, "\(action): \(error.payloadDescription)")
        } catch {
            throw BridgeError(.badPayload, "\(action): payload: \(error)")
        }
    }

    static func encode<R: Encodable>(_ value: R, action: String) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        do { return try JSONValue(encoding: value) } catch {
            throw BridgeError(.handlerFailed, "\(action): result could not be encoded as JSON: \(error)")
        }
    }
}
