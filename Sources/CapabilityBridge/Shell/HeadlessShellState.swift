import JSEngine

/// Everything a ``HeadlessShell`` has been asked to do, as a real shell would show it.
public struct HeadlessShellState: Sendable, Hashable {
    /// Bottom (the micro-app's own page) first. `back` pops when more than one entry is left.
    public var navigationStack: [ShellDestination]
    /// Every `doAction` in order (back, reload, share).
    public var actions: [ShellAction]
    /// Every alert shown, in order.
    public var alerts: [ShellAlert]
    public var header: ShellHeader
    public var loading: ShellLoadingState
    /// How many times `getInitialData` was answered.
    public var initialDataRequests: Int

    public init(navigationStack: [ShellDestination] = [], actions: [ShellAction] = [], alerts: [ShellAlert] = [],
                header: ShellHeader = ShellHeader(), loading: ShellLoadingState = .loading, initialDataRequests: Int = 0) {
        self.navigationStack = navigationStack
        self.actions = actions
        self.alerts = alerts
        self.header = header
        self.loading = loading
        self.initialDataRequests = initialDataRequests
    }

    /// The state as JSON, keys in a fixed order, for `statehub run` to print:
    /// `{"navigationStack":[…],"header":{…},"loading":{…},"alerts":[…],"actions":[…],"initialDataRequests":n}`.
    public var jsonValue: JSONValue {
        .object([
            "navigationStack": .array(navigationStack.map(\.jsonValue)),
            "header": header.jsonValue,
            "loading": loading.jsonValue,
            "alerts": .array(alerts.map(\.jsonValue)),
            "actions": .array(actions.map(\.jsonValue)),
            "initialDataRequests": .number(Double(initialDataRequests)),
        ])
    }
}
