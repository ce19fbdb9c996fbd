// `MutationOp`, `PathStep`, `MutationOpError` and `JSONValue.apply(_:)` live in StateHubJSON
// so a trace's timeline can replay operations without the hub (the server's console builds
// one; docs/layout.md). Re-exported so that `import StateHub` brings them too: they are part
// of the hub's API.
@_exported import StateHubJSON
