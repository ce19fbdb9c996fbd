import Foundation

/// Where the server keeps its state (docs/server.md, "Storage").
public enum StorageLocation: Sendable, Hashable, CustomStringConvertible {
    /// `<directory>/statehub.sqlite`, created with the directory when missing. One instance.
    case sqlite(directory: URL)
    /// A PostgreSQL database, `postgres://user[:password]@host[:port]/database`. Several instances.
    case postgres(url: String)

    /// Never includes a password: safe for a log line.
    public var description: String {
        switch self {
        case .sqlite(let directory):
            return "sqlite at \(directory.path)/statehub.sqlite"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres (unparsable URL)" }
            if components.password != nil { components.password = "***" }
            return "postgres \(components.string ?? "?")"
        }
    }
}
