import Foundation

/// Which URLs `gotoWebview` may open: `https` only, host on the list.
///
/// Hosts compare case-insensitively. An entry `"*.example.com"` allows every subdomain of
/// `example.com` (not `example.com` itself: list it too). URLs with user info
/// (`https://user@host/`) are refused, so what is shown is what is opened.
public struct URLAllowlist: Sendable, Hashable {
    /// The entries, lowercased.
    public private(set) var hosts: Set<String>

    public init(hosts: some Sequence<String>) {
        self.hosts = Set(hosts.map { $0.lowercased() })
    }

    /// Nothing allowed.
    public static let none = URLAllowlist(hosts: [])

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
        if hosts.contains(host) { return nil }
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if hosts.contains("*." + rest) { return nil }
        }
        return "host \(host) is not on the allowlist"
    }
}
