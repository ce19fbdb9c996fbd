import JSEngine
import Trace

extension BridgeHost {
    /// The page function that calls `window[callback](result)` with an object (page-shim.js).
    static let answerLegacyFunction = "StateHubPage.answerLegacy"

    /// Handles a legacy bridge URL (B.5) a page navigated to: the same grants, allowlist,
    /// size cap and handlers as B.1; answered through the page's callback with
    /// `{data, err, msg}`. A WKWebView adapter calls this from `decidePolicyFor` (and cancels
    /// the navigation); in an engine page-shim.js reports the navigation on the `page` channel.
    ///
    /// - Throws: ``BridgeHostError/unknownPage(_:)``.
    public func handleLegacyURL(_ url: String, fromPage pageID: String) throws(BridgeHostError) {
        guard let page = page(pageID) else { throw .unknownPage(pageID) }
        handleLegacyURL(url, from: page)
    }

    /// Whether `url` uses the legacy bridge scheme (so a navigation to it is a call).
    public func isLegacyBridgeURL(_ url: String) -> Bool {
        guard let separator = url.range(of: "://") else { return false }
        return url[..<separator.lowerBound].lowercased() == configuration.legacyScheme.lowercased()
    }

    func handleLegacyURL(_ url: String, from page: AttachedPage) {
        let size = url.utf8.count
        let parsed: Result<LegacyURLRequest, LegacyURLParseError>
        do { parsed = .success(try LegacyURLRequest.parse(url, scheme: configuration.legacyScheme)) } catch { parsed = .failure(error) }
        let logged: JSONValue
        switch parsed {
        case .success(let request) where size <= configuration.maxRequestBytes:
            logged = .object(["api": .string(request.api), "params": request.params,
                              "callback": request.callback.map(JSONValue.string) ?? .null])
        default:
            logged = .object(["url": .string(size <= 4096 ? url : String(url.prefix(4096)))])
        }
        record(.webToNative, page: page, type: "legacy_invoke", message: logged.jsonText())

        let callback: String?
        switch parsed {
        case .success(let request): callback = request.callback
        case .failure(let error): callback = error.callback
        }
        if size > configuration.maxRequestBytes {
            let error = BridgeError(.payloadTooLarge, "legacy URL of \(size) bytes is over the cap of \(configuration.maxRequestBytes) bytes")
            answerLegacy(callback: callback, action: nil, .failure(error), to: page)
            return
        }
        switch parsed {
        case .failure(let error):
            answerLegacy(callback: callback, action: nil, .failure(BridgeError(.badPayload, "legacy URL: \(error.reason)")), to: page)
        case .success(let request):
            let bridgeRequest = BridgeRequest(id: request.callback, action: request.api, payload: request.params)
            start(bridgeRequest, page: page, transport: .legacyURL) { [weak self] result in
                self?.answerLegacy(callback: request.callback, action: request.api, result, to: page)
            }
        }
    }

    /// Answers through `window[callback]` (via page-shim.js), or records and drops the
    /// answer when there is no callback.
    func answerLegacy(callback: String?, action: String?, _ result: Result<JSONValue, BridgeError>, to page: AttachedPage) {
        var note = action
        if case .failure(let error) = result { note = [action, error.code.rawValue].compactMap { $0 }.joined(separator: ": ") }
        guard let callback else {
            let text = BridgeReply.legacyResult(result).jsonText()
            record(.nativeToWeb, page: page, type: "legacy_reply", message: text,
                   note: "dropped (no callback)" + (note.map { "; \($0)" } ?? ""))
            return
        }
        let text = BridgeReply.legacyAnswer(callback: callback, result: result)
        record(.nativeToWeb, page: page, type: "legacy_reply", message: text, note: note)
        deliver(text, to: Self.answerLegacyFunction, page: page, type: "legacy_reply")
    }
}
