import Foundation

/// Which URLs `gotoWebview` may open: `https` only, host (and port) on the list.
///
/// Hosts compare case-insensitively. An entry `"*.example.com"` allows every subdomain of
/// `example.com` (not `example.com` itself: list it too). An entry names a host on the
/// https default port, 443, unless it lists a port (`"shop.example.com:8443"`): a URL on
/// another port — `:8443`, `:0`, `:99999` — is refused unless that port is listed. URLs with
/// user info (`https://user@host/`) are refused, so what is shown is what is opened.
public struct URLAllowlist: Sendable, Hashable {
    /// The entries, lowercased; an explicit `:443` is dropped (it is the default).
    public private(set) var hosts: Set<String>

    public init(hosts: some Sequence<String>) {
        self.hosts = Set(hosts.map { Self.normalized($0.lowercased()) })
    }

    /// Nothing allowed.
    public static let none = URLAllowlist(hosts: [])

    static let defaultPort = 443

    private static func normalized(_ entry: String) -> String {
        entry.hasSuffix(":\(defaultPort)") ? String(entry.dropLast(":\(defaultPort)".count)) : entry
    }

    /// Checks `url`; returns `nil` when allowed, else why not (for `url_not_allowed`).
    ///
    /// - Complexity: O(labels in the host).
    public func violation(for url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme else {
            return "\(url) is not a valid URL"
        }
        guard scheme.lowercased() == "https" else { return "only https URLs may be opened, not \(scheme)" }
        guard components.user == nil, components.password == nil else { return "URLs with user info are refused" }
        guard let host = components.host?.lowercased(), !host.isEmpty else { return "\(url) has no host" }
        let port = components.port ?? Self.defaultPort
        guard (1...65_535).contains(port) else { return "port \(port) is not a valid port" }
        let suffix = port == Self.defaultPort ? "" : ":\(port)"
        if hosts.contains(host + suffix) { return nil }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if hosts.contains("*." + rest + suffix) { return nil }
        }
        if port != Self.defaultPort, violation(for: "https://\(host)/") == nil {
            return "port \(port) of host \(host) is not on the allowlist (an entry without a port allows \(Self.defaultPort) only)"
        }
        return "host \(host) is not on the allowlist"
    }
}
