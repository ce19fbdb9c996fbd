import ArgumentParser
/// What `statehub --version` prints.
enum StateHubVersion {
    static let text = "statehub 0.12.0 (protocol 1)"
}

extension StateHubCommand {
    /// `bundle`, kept apart from the shared list.
    static let cliCommands: [any ParsableCommand.Type] = [BundleCommand.self]
}
