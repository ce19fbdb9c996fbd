import StateHubJSON

/// What `statehub types` knows of one store: every state it saw (the initial `$state` and
/// each state a trace leads to), and each action with its declared parameters and the
/// arguments it was called with.
public struct StoreObservations: Sendable, Equatable {
    public var id: String
    /// Every state seen, merged.
    public var state = TypeShape()
    /// The store's actions by name.
    public var actions: [String: ActionObservations] = [:]
    /// Every set of getter values seen (docs/PROTOCOL.md A.13), merged; no kind while none was seen.
    public var getters = TypeShape()

    public init(id: String) { self.id = id }

    /// Merges one whole state (tagged-encoded, as mirrors hold it).
    public mutating func observe(state value: JSONValue) {
        state.observe(value)
    }

    /// Merges the values of the store's getters, one object holding every getter by name, as
    /// `GlobalStateHub.getters(of:)` gives it. An empty object (a store without getters) adds nothing.
    public mutating func observe(getters value: JSONValue) {
        guard case .object(let members) = value, !members.isEmpty else { return }
        getters.observe(value)
    }

    /// Declares an action (from the page), with its parameter names when known (`nil` for a
    /// position without one name, `...rest` for a rest parameter).
    public mutating func declare(action name: String, parameters: [String?]) {
        var action = actions[name] ?? ActionObservations()
        if !action.parametersKnown {
            action.parametersKnown = true
            if parameters.count > ActionObservations.maximumArity {
                action.tooManyArguments = true
            } else {
                action.parameterNames = parameters
            }
        }
        actions[name] = action
    }

    /// Notes an action by name only (a trace's mutation named it): neither its parameters
    /// nor its arguments are known, so its method takes any arguments (docs/types.md).
    public mutating func mention(action name: String) {
        if actions[name] == nil { actions[name] = ActionObservations() }
    }

    /// Merges one call's arguments (tagged-encoded, as `dispatch_action` carries them).
    public mutating func observe(action name: String, arguments: [JSONValue]) {
        var action = actions[name] ?? ActionObservations()
        action.calls += 1
        if arguments.count > ActionObservations.maximumArity { action.tooManyArguments = true }
        for (index, argument) in arguments.prefix(ActionObservations.maximumArity).enumerated() {
            while action.arguments.count <= index { action.arguments.append(TypeShape()) }
            action.arguments[index].observe(argument)
            action.arguments[index].present += 1
        }
        actions[name] = action
    }
}
