import JSEngine

/// A registered handler with its payload and result types erased to JSON.
struct AnyBridgeHandler: Sendable {
    /// Decodes the payload, runs the handler, encodes the result.
    let run: @Sendable (JSONValue, BridgeCallContext) async throws -> JSONValue

    init<P: Decodable & Sendable, R: Encodable & Sendable>(
        action: String, payload: P.Type, result: R.Type,
        handler: @escaping @Sendable (P, BridgeCallContext) async throws -> R
    ) {
        run = { raw, context in
            let decoded: P
            if let same = raw as? P {
                decoded = same
            } else {
                do { decoded = try raw.decode(P.self) } catch let error as DecodingError {
                    throw BridgeError(.badPayload, "\(action): \(error.payloadDescription)")
                } catch {
                    throw BridgeError(.badPayload, "\(action): payload: \(error)")
                }
            }
            let value = try await handler(decoded, context)
            if let json = value as? JSONValue { return json }
            do { return try JSONValue(encoding: value) } catch {
                throw BridgeError(.handlerFailed, "\(action): result could not be encoded as JSON: \(error)")
            }
        }
    }
}
