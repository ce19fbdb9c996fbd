/// The actions that ship with StateHub (PROTOCOL.md B.4), handled by the framework layer.
public enum FrameworkAction: String, Sendable, Hashable, CaseIterable {
    case getInitialData, showAlert, didFinishLoading, didFailLoading, gotoWebview, gotoNative, doAction, configNative
}
