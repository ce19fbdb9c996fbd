import Foundation

/// Which documents a page's frames may load: a document of another origin would get the page's
/// message channels (`window.webkit.messageHandlers` reaches every frame, and WebKitGTK does not
/// say which frame posted) and, in the top frame, StateHub's user scripts and `invokeNative`
/// (docs/webview.md, "Limits and hostile input").
enum NavigationGuard {
    /// Whether a frame of a page whose document has `baseURI` may navigate to `uri`: `about:blank`
    /// and `about:srcdoc` (they take their origin from the page that makes them), the base URI
    /// itself, whatever its fragment (the page's own document, loaded and reloaded there, even when
    /// its origin is opaque: `file:`, a custom scheme), and URIs of the base URI's origin (scheme,
    /// host, port). With no base URI (an `about:blank` page) nothing else.
    static func allows(_ uri: String, baseURI: String?) -> Bool {
        if uri == "about:blank" || uri == "about:srcdoc" { return true }
        guard let baseURI else { return false }
        if withoutFragment(uri) == withoutFragment(baseURI) { return true }
        guard let origin = origin(of: baseURI) else { return false }
        return self.origin(of: uri) == origin
    }

    private static func withoutFragment(_ uri: String) -> Substring {
        uri.firstIndex(of: "#").map { uri[..<$0] } ?? uri[...]
    }

    /// `scheme://host:port`, lowercased, with the scheme's default port; `nil` for an opaque
    /// origin (`data:`, `file:`, `about:`, anything without a host). `blob:` URIs have the origin
    /// of the URI inside them.
    static func origin(of uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else { return nil }
        if scheme == "blob" { return origin(of: String(uri.dropFirst("blob:".count))) }
        guard let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        let port = components.port ?? defaultPorts[scheme]
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }

    private static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443]
}
