import JSEngine

/// Builds the texts native sends to a page. Every text is made by serialising a
/// `JSONValue`, never by pasting strings into JSON or into source: escape-free by
/// construction.
enum BridgeReply {
    /// B.2 success: `{"id":…,"ok":true,"data":…}`.
    static func success(id: String, data: JSONValue) -> String {
        JSONValue.object(["id": .string(id), "ok": .bool(true), "data": data]).jsonText()
    }

    /// B.2 failure: `{"id":…,"ok":false,"error":{"code":…,"message":…}}`.
    static func failure(id: String, error: BridgeError) -> String {
        JSONValue.object([
            "id": .string(id), "ok": .bool(false),
            "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)]),
        ]).jsonText()
    }

    /// B.3 event: `{"event":…,"data":…}`.
    static func event(_ name: String, data: JSONValue) -> String {
        JSONValue.object(["event": .string(name), "data": data]).jsonText()
    }

    /// B.5 answer object: `{"data":…,"err":0,"msg":"ok"}` or `{"data":null,"err":N,"msg":"code: message","code":…}`.
    static func legacyResult(_ result: Result<JSONValue, BridgeError>) -> JSONValue {
        switch result {
        case .success(let data):
            return .object(["data": data, "err": 0, "msg": "ok"])
        case .failure(let error):
            return .object([
                "data": .null, "err": .number(Double(error.code.legacyNumber)),
                "msg": .string(error.description), "code": .string(error.code.rawValue),
            ])
        }
    }

    /// What native hands `StateHubPage.answerLegacy`: `{"callback":…,"result":{…}}`.
    static func legacyAnswer(callback: String, result: Result<JSONValue, BridgeError>) -> String {
        JSONValue.object(["callback": .string(callback), "result": legacyResult(result)]).jsonText()
    }
}
