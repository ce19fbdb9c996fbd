// `JSONValue` and its parser live in StateHubJSON (which Trace and StyleTokens use without
// the engine); re-exported so `import JSEngine` keeps bringing them.
@_exported import StateHubJSON
