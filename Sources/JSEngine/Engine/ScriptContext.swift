import DequeModule
import Foundation
import Logging
#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

/// One JavaScriptCore context group and global context, used only on its engine's thread.
///
/// `JavaScriptEngine` (the public, `Sendable` actor) owns one and forwards to it; code
/// already on the engine thread reaches it through `JavaScriptEngine.assumeIsolated`.
/// Invariant: after `close()`, `context` is `nil` and every operation throws
/// `EngineError.closed`; every value this type protected has been unprotected.
final class ScriptContext {
    private(set) var group: JSContextGroupRef?
    private(set) var context: JSGlobalContextRef?
    let configuration: JavaScriptEngine.Configuration
    let logger: Logger

    /// The turn lifecycle: whether JavaScript is entered, the running turn's stop, and what
    /// must run before the next turn (`TurnStateMachine`, docs/engine.md, "The turn lifecycle").
    var turns = TurnStateMachine()
    /// Tests only: every probe after a stop counts as failed, so the stop closes the context
    /// (what JavaScriptCore does now and then under a 1 ns limit, which cannot be timed).
    var stopProbesFailForTesting = false
    /// What the running turn is doing, for other threads (see `EngineActivity`).
    let activity = EngineActivity()
    /// The configured time limit in nanoseconds; nil until the engine's own set-up is done (``init(configuration:)``).
    private(set) var configuredTurnLimitNanos: UInt64?
    /// The running turn's limit in nanoseconds, measured over the whole turn at native calls:
    /// the configured one, or what an owner's evaluation asked for (``nextTurnLimit``).
    var turnLimitNanos: UInt64?
    /// The limit the next outermost entry takes instead of the configured one, when longer
    /// (`JavaScriptEngine.evaluate(_:sourceURL:timeLimit:)`).
    var nextTurnLimit: Duration?
    /// The engine thread's CPU time when the running turn began (0 unless `measuresTurnCPU`).
    var turnStartCPU: UInt64 = 0
    /// Monotonic nanoseconds when the running turn began; 0 between turns. The engine thread
    /// reads its own copy: `activity` is what other threads read.
    var turnStartWall: UInt64 = 0
    /// The engine thread's CPU time when the outermost native call under way began; nil when none is.
    var nativeCallStartCPU: UInt64?
    /// Whether anything reads a turn's CPU time: the time limit and the unresponsive watch
    /// (`JavaScriptEngine` starts the watch with either setting). Without them an entry reads
    /// no CPU clock.
    let measuresTurnCPU: Bool
    /// How native functions and held functions reach this context (`ContextLink`).
    let link = ContextLink()
    /// Native calls under way (a native call can run JavaScript that calls native code).
    var nativeDepth = 0
    /// CPU and wall-clock time the running turn spent in outermost native calls: not the
    /// page's, so not counted against its limit (`ScriptContext+NativeTime.swift`).
    var nativeCPUInTurn: UInt64 = 0
    var nativeWallInTurn: UInt64 = 0
    /// What the running turn was entered through (`script`, `call`, `timer`).
    var entryKind: ScriptStop.Kind = .script
    /// Page functions JavaScriptCore handed back from its run loop, to run in turns of their own
    /// (`ScriptContext+Finalizers.swift`); each function and argument is protected.
    var handedBack: Deque<(callback: JSObjectRef, heldValue: JSValueRef?, kind: ScriptStop.Kind)> = []
    /// The stop of the running turn, once known; handed to `stopHandlers` when the turn ends.
    var turnStop: ScriptStop?
    /// The stop of the last turn that ended, read by the caller that entered it.
    var lastTurnStop: ScriptStop?
    /// Set while a turn runs for a caller that takes its stops (`send`'s `onFailure`): a
    /// microtask stopped in it goes to that caller, not to `onUnhandledError` as well.
    var stopsGoToCaller = false
    /// Who hears of every stop (`PageTransport.onStop`).
    let stopHandlers = StopHandlers()
    /// The text of the page's scripts by source URL (StateHub's own `statehub:` ones left
    /// out), so a stop can name the loop's line (`ScriptLocation.loopLine`). At most
    /// `sourceLimit` files are kept.
    var sources: [String: String] = [:]
    /// The line maps scripts were evaluated with, by source URL (as `sources`).
    var lineMaps: [String: ScriptLineMap] = [:]
    static let sourceLimit = 256
    /// Unhandled rejections and exceptions thrown by timer callbacks, oldest first (the
    /// newest `unhandledErrorLimit` are kept), for owners that poll.
    var unhandledErrors: [UnhandledError] = []
    static let unhandledErrorLimit = 1_000

    /// Timers, in firing order: due time, then insertion. See `ScriptContext+Timers.swift`.
    var timers = TimerQueue()
    var nextTimerID = 1
    var timerSequence: UInt64 = 0
    /// Virtual time in nanoseconds under the manual clock; unused under the real one.
    var manualNow: UInt64 = 0
    let startTime = ContinuousClock.now

    /// Values protected on behalf of `JSFunction` handles, released at `close()`.
    var protectedHandles: Set<OpaquePointer> = []
    /// Cached function objects used on hot paths (`JSON.stringify` is not needed: the C API has it).
    var promiseConstructor: JSObjectRef?
    var errorConstructor: JSObjectRef?
    /// `TypeError.prototype` and its kin, taken at start (a page may replace the globals): a
    /// native's `TypeError` is `instanceof TypeError`, not an `Error` named so.
    var nativeErrorPrototypes: [String: JSObjectRef] = [:]
    /// `Function.prototype`, given to every native function so `call`/`apply`/`bind` work.
    var functionPrototype: JSObjectRef?
    /// The native function `runAsOneTask` enters JavaScript through, and the Swift work it
    /// runs there. See `ScriptContext+Tasks.swift`.
    var taskRunner: JSObjectRef?
    var taskBody: (() -> Void)?
    /// The script that fires a batch of timers and its state object (`ScriptContext+TimerBatch.swift`).
    var timerFirerFunction: JSObjectRef?
    var timerFirerState: JSObjectRef?
    /// While a batch fires: each timer's id → its place in the batch, the batch's array of
    /// cancellation marks, and the places cancelled during it.
    var firingBatch: [Int: Int] = [:]
    var firingCancelled: JSObjectRef?
    var firingSkipped: Set<Int> = []

    init(configuration: JavaScriptEngine.Configuration) throws {
        self.configuration = configuration
        self.logger = configuration.logger
        let group = JSContextGroupCreate()
        self.group = group
        let context = JSGlobalContextCreateInGroup(group, nil)
        self.context = context
        if let name = configuration.name.jsStringRetained() {
            JSGlobalContextSetName(context, name)
            JSStringRelease(name)
        }
        measuresTurnCPU = configuration.executionTimeLimit != nil || configuration.onUnresponsive != nil
        link.attach(self)
        activity.recordEngineThreadClock()
        promiseConstructor = try globalObject(named: "Promise")
        errorConstructor = try globalObject(named: "Error")
        for name in ["TypeError", "RangeError", "SyntaxError"] {
            let constructor = try globalObject(named: name)
            defer { JSValueUnprotect(context, constructor) }
            if let prototype = try property("prototype", of: constructor), let object = JSValueToObject(context, prototype, nil) {
                JSValueProtect(context, object)
                nativeErrorPrototypes[name] = object
            }
        }
        let function = try globalObject(named: "Function")
        JSValueUnprotect(context, function)
        if let prototype = try property("prototype", of: function), let object = JSValueToObject(context, prototype, nil) {
            JSValueProtect(context, object)
            functionPrototype = object
        }
        try installBaseGlobals()
        // The page's limit starts with the page: the engine's own set-up (the web globals'
        // installer) is not the page's code, and under a 20 ms limit on a loaded machine with a
        // collector that never pauses it would be stopped and the engine fail to start
        // (StopRecoveryCollectionTests).
        configuredTurnLimitNanos = configuration.executionTimeLimit.map { $0.nanoseconds }
        turnLimitNanos = configuredTurnLimitNanos
        if let limit = configuration.executionTimeLimit, !installTimeLimit(seconds: limit.inSeconds) {
            logger.warning("the execution time limit is not supported on this platform")
        }
    }

    deinit { close() }

    /// Releases the context and the group. Idempotent.
    func close() {
        guard let context else { return }
        link.detach()
        for timer in timers.all { timer.unprotect(in: context) }
        dropHandedBack()
        timers.removeAll()
        activity.setTimerCount(0)
        for value in protectedHandles { JSValueUnprotect(context, value) }
        protectedHandles.removeAll()
        if let promiseConstructor { JSValueUnprotect(context, promiseConstructor) }
        if let errorConstructor { JSValueUnprotect(context, errorConstructor) }
        for prototype in nativeErrorPrototypes.values { JSValueUnprotect(context, prototype) }
        nativeErrorPrototypes = [:]
        if let functionPrototype { JSValueUnprotect(context, functionPrototype) }
        if let taskRunner { JSValueUnprotect(context, taskRunner) }
        if let timerFirerFunction { JSValueUnprotect(context, timerFirerFunction) }
        if let timerFirerState { JSValueUnprotect(context, timerFirerState) }
        timerFirerFunction = nil
        timerFirerState = nil
        taskRunner = nil
        taskBody = nil
        promiseConstructor = nil
        errorConstructor = nil
        functionPrototype = nil
        if let group, configuration.executionTimeLimit != nil { PrivateJavaScriptCore.clearExecutionTimeLimit(group) }
        JSGlobalContextRelease(context)
        if let group { JSContextGroupRelease(group) }
        self.context = nil
        self.group = nil
        turns.close()
    }

    /// The live context, or `EngineError.closed`.
    func live() throws(EngineError) -> JSGlobalContextRef {
        guard let context else { throw .closed }
        return context
    }

    private func globalObject(named name: String) throws -> JSObjectRef {
        let context = try live()
        guard let global = JSContextGetGlobalObject(context) else { throw EngineError.closed }
        let value = try property(name, of: global)
        guard let object = JSValueToObject(context, value, nil) else { throw EngineError.invalidName(name) }
        JSValueProtect(context, object)
        return object
    }

    // MARK: Evaluation

    /// Evaluates a classic script and returns its completion value as a raw JSC value.
    func evaluateRaw(_ source: String, sourceURL: String?, lineMap: ScriptLineMap? = nil) throws -> JSValueRef? {
        if let sourceURL, !sourceURL.hasPrefix("statehub:"), sources[sourceURL] != nil || sources.count < Self.sourceLimit {
            sources[sourceURL] = source
            lineMaps[sourceURL] = lineMap
        }
        return try withScript(source, sourceURL: sourceURL) { context, script, url in
            try enter(entry: sourceURL ?? "<script>", kind: .script) {
                var exception: JSValueRef?
                let result = JSEvaluateScript(context, script, nil, url, 1, &exception)
                if let exception { throw error(fromException: exception) }
                return result
            }
        }
    }

    /// Runs `body` with the script text and its URL as JSC strings, released afterwards.
    private func withScript<T>(_ source: String, sourceURL: String?, _ body: (JSGlobalContextRef, JSStringRef, JSStringRef?) throws -> T) throws -> T {
        let context = try live()
        guard let script = source.jsStringRetained() else { throw EngineError.invalidName("script text") }
        defer { JSStringRelease(script) }
        let url = sourceURL?.jsStringRetained()
        defer { if let url { JSStringRelease(url) } }
        return try body(context, script, url)
    }

    /// Evaluates a classic script and converts its completion value to JSON.
    ///
    /// A completion value of `undefined` becomes `.null`.
    func evaluate(_ source: String, sourceURL: String?) throws -> JSONValue {
        // An object's conversion is a turn of its own (a `toJSON` or getter is the page's code,
        // ``insideEntry(keepingAlive:_:)``): it gets the limit the owner asked for the evaluation.
        let asked = nextTurnLimit
        let value = try evaluateRaw(source, sourceURL: sourceURL)
        nextTurnLimit = asked
        defer { nextTurnLimit = nil }
        return try json(from: value)
    }

    /// Checks the syntax of `source` without running it.
    ///
    /// The check runs none of the page's code; reading the `SyntaxError` it makes does (a
    /// getter the page put on `SyntaxError.prototype`), inside an entry
    /// (``error(fromException:)``).
    func checkSyntax(_ source: String, sourceURL: String?) throws {
        try withScript(source, sourceURL: sourceURL) { context, script, url in
            var exception: JSValueRef?
            if !JSCheckScriptSyntax(context, script, url, 1, &exception), let exception {
                throw error(fromException: exception)
            }
        }
    }

    // MARK: Properties

    /// A property's value. A getter or a proxy's trap is the page's code: refused while a
    /// stop is unsettled (``refuseWhileStopped(kind:)``).
    func property(_ name: String, of object: JSObjectRef) throws -> JSValueRef? {
        let context = try live()
        try refuseWhileStopped()
        guard let key = name.jsStringRetained() else { throw EngineError.invalidName(name) }
        defer { JSStringRelease(key) }
        var exception: JSValueRef?
        let value = JSObjectGetProperty(context, object, key, &exception)
        if let exception { throw error(fromException: exception) }
        return value
    }

    /// Sets a property; a setter is the page's code, as for ``property(_:of:)``.
    func setProperty(_ name: String, of object: JSObjectRef, to value: JSValueRef?, readOnly: Bool = false) throws {
        let context = try live()
        try refuseWhileStopped()
        guard let key = name.jsStringRetained() else { throw EngineError.invalidName(name) }
        defer { JSStringRelease(key) }
        var exception: JSValueRef?
        let attributes = readOnly ? JSPropertyAttributes(kJSPropertyAttributeReadOnly | kJSPropertyAttributeDontDelete) : JSPropertyAttributes(kJSPropertyAttributeNone)
        JSObjectSetProperty(context, object, key, value, attributes, &exception)
        if let exception { throw error(fromException: exception) }
    }

    /// The object at a dotted path from the global object (`"window.webkit"`), created as
    /// plain objects where missing. An empty path is the global object.
    func object(atPath path: String, creatingMissing: Bool) throws -> JSObjectRef {
        let context = try live()
        var current = JSContextGetGlobalObject(context)
        guard !path.isEmpty else {
            guard let current else { throw EngineError.closed }
            return current
        }
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            let name = String(part)
            guard !name.isEmpty, let holder = current else { throw EngineError.invalidName(path) }
            let value = try property(name, of: holder)
            if let value, JSValueIsObject(context, value), let object = JSValueToObject(context, value, nil) {
                current = object
            } else if creatingMissing {
                let object = JSObjectMake(context, nil, nil)
                try setProperty(name, of: holder, to: object)
                current = object
            } else {
                throw EngineError.invalidName(path)
            }
        }
        guard let current else { throw EngineError.invalidName(path) }
        return current
    }

    // MARK: Calls

    /// Calls a function object with raw arguments; `this` is `undefined` unless given.
    ///
    /// - Parameter kind: what a stop in this call is, if it is the outermost entry (`timer` for
    ///   timer callbacks; `call` otherwise).
    func callRaw(_ function: JSObjectRef, this: JSObjectRef? = nil, arguments: [JSValueRef?], kind: ScriptStop.Kind = .call) throws -> JSValueRef? {
        try arguments.withUnsafeBufferPointer { try callRaw(function, this: this, argumentBuffer: $0, kind: kind) }
    }

    /// `callRaw` with the arguments in a buffer the caller owns: no array per call.
    func callRaw(_ function: JSObjectRef, this: JSObjectRef?, argumentBuffer arguments: UnsafeBufferPointer<JSValueRef?>, kind: ScriptStop.Kind = .call) throws -> JSValueRef? {
        let context = try live()
        // The values to keep alive are gathered only when the entry runs code of its own first.
        guard !turns.isInEntry, turns.nextEntryRunsCodeFirst else { return try enteredCall(context, function, this: this, arguments: arguments, kind: kind) }
        return try keepingAlive([function, this] + Array(arguments)) {
            try enteredCall(context, function, this: this, arguments: arguments, kind: kind)
        }
    }

    /// The call itself, inside `enter`. No closure is stored: one that captured `self` cost a
    /// retain and release of the context per call.
    private func enteredCall(_ context: JSGlobalContextRef, _ function: JSObjectRef, this: JSObjectRef?,
                             arguments: UnsafeBufferPointer<JSValueRef?>, kind: ScriptStop.Kind) throws -> JSValueRef? {
        try enter(kind: kind) {
            var exception: JSValueRef?
            let result = JSObjectCallAsFunction(context, function, this, arguments.count, arguments.baseAddress, &exception)
            if let exception { throw error(fromException: exception) }
            return result
        }
    }

    /// `callRaw` with one argument made just before the call (a message's string, a promise's
    /// value), protected from the collector from the moment it is made until the call returns.
    ///
    /// Pass the value straight from the call that made it (`protecting: makeString(text)`), so it
    /// lives only in registers and on the stack until it is protected here. Held in a Swift
    /// array instead, it is on Swift's heap, which the collector does not scan: JavaScriptCore
    /// collects on a thread of its own whenever this thread is between API calls, so a
    /// collection could find the value dead before ``keepingAlive(_:_:)`` protected it, and
    /// the stop recovery's first allocations reused its cell (a `request_sync` reached the
    /// page as `"504"`, a number the recovery's flush had just written; docs/engine.md,
    /// "Values made before a call").
    func callRaw(_ function: JSObjectRef, this: JSObjectRef? = nil, protecting argument: JSValueRef?, kind: ScriptStop.Kind = .call) throws -> JSValueRef? {
        let context = try live()
        if let argument { JSValueProtect(context, argument) }
        defer { unprotectIfLive(argument) }
        return try callRaw(function, this: this, arguments: [argument], kind: kind)
    }

    /// Ends a protection taken around a call into the page, if the context still lives.
    ///
    /// A stop whose recovery fails closes the context as the call returns (``close()``
    /// releases the group, and every protection with it): unprotecting through the context
    /// held before the call would touch a freed VM. A fresh-clone test run crashed so (signal
    /// 11 in `JSValueUnprotect`), starting a pool page with a 1 ns limit.
    func unprotectIfLive(_ value: JSValueRef?) {
        guard let context, let value else { return }
        JSValueUnprotect(context, value)
    }

    /// Runs `body` with `values` protected from the garbage collector when the entry will
    /// first run code of its own (a pending stop's probes, the stop recovery), which
    /// allocates: a value reachable only from Swift would be collected there. Too late for a value held only on Swift's heap since it
    /// was made (a collection may already have found it dead): such a value is protected
    /// where it is made (``callRaw(_:this:protecting:kind:)``).
    func keepingAlive<T>(_ values: [JSValueRef?], _ body: () throws -> T) throws -> T {
        guard !turns.isInEntry, turns.nextEntryRunsCodeFirst, let context else { return try body() }
        for value in values { if let value { JSValueProtect(context, value) } }
        defer { for value in values { unprotectIfLive(value) } }
        return try body()
    }

    func call(_ function: JSObjectRef, this: JSObjectRef? = nil, arguments: [JSONValue]) throws -> JSONValue {
        try json(from: try callRaw(function, this: this, converting: arguments))
    }

    /// `callRaw` with JSON arguments, each converted straight into a stack buffer.
    ///
    /// The stack is what the collector scans, so a converted value is safe from the moment it
    /// is made, with no API call per argument; in a Swift array (`arguments.map`) it would be
    /// on Swift's heap only, and converting the next one allocates (docs/engine.md, "Values
    /// made before a call"). The stack buffer also costs less than an array per call.
    func callRaw(_ function: JSObjectRef, this: JSObjectRef? = nil, converting arguments: [JSONValue]) throws -> JSValueRef? {
        let context = try live()
        // `withUnsafeTemporaryAllocation` is on the stack up to 1,024 bytes (128 values); a
        // longer list may be on the heap, so its values are protected as they are made.
        let protecting = arguments.count > 128
        return try withUnsafeTemporaryAllocation(of: JSValueRef?.self, capacity: arguments.count) { buffer in
            var made = 0
            defer {
                if protecting { for index in 0..<made { unprotectIfLive(buffer[index]) } }
            }
            for index in arguments.indices {
                let value = try jsValue(from: arguments[index])
                if protecting, let value { JSValueProtect(context, value) }
                buffer.initializeElement(at: index, to: value)
                made += 1
            }
            return try callRaw(function, this: this, argumentBuffer: UnsafeBufferPointer(buffer), kind: .call)
        }
    }

    /// Whether `value` is a promise (`instanceof Promise`).
    ///
    /// `instanceof` runs the page's code (a `Symbol.hasInstance` on `Promise`, a proxy's
    /// `getPrototypeOf`): inside an entry, refused while a stop is unsettled, and a stop there is
    /// thrown. Any other throw of the page's code there answers "not a promise".
    func isPromise(_ value: JSValueRef?) throws -> Bool {
        guard let context, let value, let promiseConstructor, JSValueIsObject(context, value) else { return false }
        return try insideEntry(keepingAlive: value) {
            try refuseWhileStopped()
            var exception: JSValueRef?
            let answer = JSValueIsInstanceOfConstructor(context, value, promiseConstructor, &exception)
            if exception != nil { try refuseWhileStopped(kind: entryKind) }
            return answer
        }
    }

    /// Records an error no script handled and hands it to the owner's handler.
    func reportUnhandled(_ problem: UnhandledError) {
        if unhandledErrors.count >= Self.unhandledErrorLimit { unhandledErrors.removeFirst() }
        unhandledErrors.append(problem)
        logger.error("\(problem)")
        configuration.onUnhandledError?(problem)
    }
}

extension String {
    /// A JSC string with a +1 retain count: release it with `JSStringRelease`.
    ///
    /// Text without NUL bytes goes through the UTF-8 constructor (no intermediate copy);
    /// text with one goes through UTF-16, which takes anything.
    func jsStringRetained() -> JSStringRef? {
        // A C string as long as the UTF-8 holds no NUL (`strlen` is vectorised; the UTF-8 view's
        // `contains` walked byte by byte).
        let count = utf8.count
        if let string = withCString({ strlen($0) == count ? JSStringCreateWithUTF8CString($0) : nil }) {
            return string
        }
        let utf16 = Array(self.utf16)
        return utf16.withUnsafeBufferPointer { buffer in
            JSStringCreateWithCharacters(buffer.baseAddress, buffer.count)
        }
    }

    /// Copies a JSC string into a Swift string. Lone surrogates become U+FFFD.
    ///
    /// JSC writes UTF-8 straight into the new string's storage (no UTF-16 → UTF-8
    /// transcoding in Swift, which profiling showed dominating every message crossing);
    /// text longer than the small-buffer threshold goes through one heap buffer.
    ///
    /// With `escapingLoneSurrogates`, a lone surrogate becomes the six characters of its JSON
    /// escape (`\ud800`) instead of U+FFFD: message bodies are JSON text, so a lone surrogate
    /// inside a string stays visible to the reader (which may refuse it) instead of turning
    /// into a different, valid string.
    init(jsString: JSStringRef, escapingLoneSurrogates: Bool = false) {
        let length = JSStringGetLength(jsString)
        guard length > 0 else { self = ""; return }
        let capacity = JSStringGetMaximumUTF8CStringSize(jsString)
        var complete = true
        self = String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            let written = base.withMemoryRebound(to: CChar.self, capacity: capacity) {
                JSStringGetUTF8CString(jsString, $0, capacity)
            }
            // `written` counts the terminating NUL. Complete UTF-8 has at least one byte per
            // UTF-16 unit, so fewer means JSC stopped early (at a lone surrogate): the
            // UTF-16 path below takes over and repairs it.
            complete = written > 0 && written - 1 >= length
            return complete ? written - 1 : 0
        }
        if !complete || (isEmpty && length > 0) {
            guard let characters = JSStringGetCharactersPtr(jsString) else { self = ""; return }
            let units = UnsafeBufferPointer(start: characters, count: length)
            self = escapingLoneSurrogates ? Self.escapingLoneSurrogates(units) : String(decoding: units, as: UTF16.self)
        }
    }

    private static func escapingLoneSurrogates(_ units: UnsafeBufferPointer<UInt16>) -> String {
        var result = String.UnicodeScalarView()
        var index = 0
        while index < units.count {
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit), index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) {
                result.append(UnicodeScalar(UInt32(0x10000) + (UInt32(unit - 0xD800) << 10) + UInt32(units[index + 1] - 0xDC00)) ?? "\u{FFFD}")
                index += 2
                continue
            }
            if let scalar = UnicodeScalar(unit) {
                result.append(scalar)
            } else {
                let hex = String(unit, radix: 16)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            }
            index += 1
        }
        return String(result)
    }
}
