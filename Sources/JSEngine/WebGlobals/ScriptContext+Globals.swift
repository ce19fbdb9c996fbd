#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension ScriptContext {
    /// Timers, the web globals, console routing and the unhandled-rejection hook.
    func installBaseGlobals() throws {
        let context = try live()
        try installTimers()

        let natives = JSObjectMake(context, nil, nil)
        guard let natives else { throw EngineError.closed }
        try setProperty("log", of: natives, to: try makeFunction(named: "log") { owner, _, arguments in
            let level = ConsoleMessage.Level(rawValue: owner.string(from: arguments.first ?? nil)) ?? .log
            let text = arguments.count > 1 ? owner.string(from: arguments[1]) : ""
            owner.emitConsole(ConsoleMessage(level: level, text: text))
            return nil
        })
        try setProperty("now", of: natives, to: try makeFunction(named: "now") { owner, _, _ in
            JSValueMakeNumber(owner.context, Double(owner.now) / 1_000_000)
        })
        try setProperty("randomBytes", of: natives, to: try makeFunction(named: "randomBytes") { owner, _, arguments in
            let requested = arguments.isEmpty ? 0 : JSValueToNumber(owner.context, arguments[0], nil)
            let count = requested.isFinite ? max(0, min(Int(requested), 65_536)) : 0
            var generator = SystemRandomNumberGenerator()
            let bytes = (0..<count).map { _ in JSONValue.number(Double(UInt8.random(in: 0...255, using: &generator))) }
            return try owner.jsValue(from: .array(bytes))
        })
        try setProperty("handBack", of: natives, to: try makeFunction(named: "handBack") { owner, _, arguments in
            owner.queueHandedBack(arguments)
            return nil
        })
        // Does nothing itself: every native call checks the turn's time limit on the way in.
        try setProperty("checkpoint", of: natives, to: try makeFunction(named: "checkpoint") { _, _, _ in nil })
        let installer = try evaluateRaw(WebGlobalsScript.source, sourceURL: "statehub:web-globals.js")
        // `self.context`: a stop in the script's microtasks may have closed the context.
        guard let installer, let current = self.context, let function = JSValueToObject(current, installer, nil) else { throw EngineError.closed }
        // `natives` is a local until here (stack or registers); an array literal would leave it
        // on Swift's heap only for the call's entry (docs/engine.md, "Values made before a call").
        _ = try callRaw(function, protecting: natives)

        let rejectionHandler = try makeFunction(named: "onUnhandledRejection") { owner, _, arguments in
            let reason = arguments.count > 1 ? arguments[1] : nil
            owner.reportUnhandled(UnhandledError(kind: .unhandledRejection, error: owner.javaScriptError(from: reason)))
            return nil
        }
        var exception: JSValueRef?
        if !PrivateJavaScriptCore.setUnhandledRejectionCallback(try live(), rejectionHandler, exception: &exception) {
            logger.warning("unhandled promise rejections are not reported on this platform")
        }
        if let exception { throw error(fromException: exception) }
    }

    func emitConsole(_ message: ConsoleMessage) {
        switch message.level {
        case .debug: logger.debug("\(message.text)")
        case .log, .info: logger.info("\(message.text)")
        case .warn: logger.warning("\(message.text)")
        case .error: logger.error("\(message.text)")
        }
        configuration.onConsole?(message)
    }
}
