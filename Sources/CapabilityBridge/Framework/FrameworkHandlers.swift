import JSEngine

/// The framework layer: one handler per ``FrameworkAction``, each acting on the page's
/// ``Shell``. Installed by ``BridgeHost/init(configuration:trace:frameworkHandlers:)``.
enum FrameworkHandlers {
    static func install(on host: BridgeHost) {
        host.registerFramework("getInitialData", payload: EmptyPayload.self, result: JSONValue.self) { _, context in
            try await context.shell.initialData(for: context.app)
        }
        host.registerFramework("showAlert", payload: ShowAlertPayload.self, result: ShowAlertResult.self) { payload, context in
            let alert = ShellAlert(title: payload.title, message: payload.message, buttons: payload.buttons ?? ["OK"])
            return ShowAlertResult(index: await context.shell.showAlert(alert))
        }
        host.registerFramework("didFinishLoading", payload: EmptyPayload.self, result: JSONValue.self) { _, context in
            await context.shell.setLoadingState(.finished)
            return .null
        }
        host.registerFramework("didFailLoading", payload: DidFailLoadingPayload.self, result: JSONValue.self) { payload, context in
            await context.shell.setLoadingState(.failed(message: payload.message, code: payload.code))
            return .null
        }
        host.registerFramework("gotoWebview", payload: GotoWebviewPayload.self, result: JSONValue.self) { payload, context in
            // The host checked the URL policy before any handler ran; checked again here in
            // case a business handler rewrote nothing but the framework is called directly.
            if let violation = context.host.value?.configuration.urlAllowlist.violation(for: payload.url) {
                throw BridgeError(.urlNotAllowed, "gotoWebview: \(violation)")
            }
            await context.shell.push(.web(url: payload.url, title: payload.title))
            return .null
        }
        host.registerFramework("gotoNative", payload: GotoNativePayload.self, result: JSONValue.self) { payload, context in
            // Validated by decoding; taken from the raw payload so its key order is kept.
            let params = context.rawPayload["params"].flatMap { $0.isNull ? nil : $0 } ?? payload.params ?? .object([:])
            await context.shell.push(.native(page: payload.page, params: params))
            return .null
        }
        host.registerFramework("doAction", payload: DoActionPayload.self, result: JSONValue.self) { payload, context in
            await context.shell.perform(payload.shellAction)
            return .null
        }
        host.registerFramework("configNative", payload: ConfigNativePayload.self, result: JSONValue.self) { payload, context in
            try await configNative(payload, context)
            return .null
        }
        // Results typed `JSONValue` above, as `--bridge-ts` declares them (docs/types.md).
        host.describe("getInitialData", result: "Record<string, unknown>")
        for action in ["didFinishLoading", "didFailLoading", "gotoWebview", "gotoNative", "doAction", "configNative"] {
            host.describe(action, result: "null")
        }
    }

    /// Applies `configNative`: `nav_item_right` entries (if any) replace the right items, in
    /// order (an empty `configs` clears them); a `title` entry pins or unpins the title.
    static func configNative(_ payload: ConfigNativePayload, _ context: BridgeCallContext) async throws {
        var items: [ShellHeaderItem] = []
        var sawItems = false
        var pin: String?? = .none
        let raw = context.rawPayload["configs"]?.arrayValue ?? []
        for (index, config) in payload.configs.enumerated() {
            switch config {
            case .navItemRight(let title, let icon, let action):
                sawItems = true
                let parameters = raw[safe: index]?["action_parameters"] ?? .object([:])
                items.append(ShellHeaderItem(title: title, iconURL: icon, action: action,
                                             parameters: parameters.isNull ? .object([:]) : parameters))
            case .title(let title):
                pin = .some(title)
            }
        }
        if sawItems || payload.configs.isEmpty {
            let page = context.page
            let host = context.host
            page.rightItems.withLock { $0 = items }
            await context.shell.setRightItems(items) { item in
                host.value?.sendEvent(item.action, data: item.parameters, to: page)
            }
        }
        if case .some(let title) = pin { await context.shell.pinTitle(title) }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
