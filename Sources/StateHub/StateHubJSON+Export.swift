// `MutationOp`, `PathStep`, `MutationOpError` and `JSONValue.apply(_:)` moved down into
// StateHubJSON so a trace's timeline can replay operations without the hub (the server's
// console builds one; docs/layout.md). Re-exported so that `import StateHub` keeps bringing
// them, as it did when they were declared here.
@_exported import StateHubJSON
