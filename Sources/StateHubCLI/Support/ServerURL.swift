import Foundation

/// Server URLs the CLI reads and prints. A `--server` argument is an http(s) URL with a host,
/// its scheme matched case-insensitively (`HTTP://host` is `http://host`, RFC 3986 section 3.1).
enum ServerURL {
    /// `http://HOST:PORT` for a listening address, an IPv6 literal in brackets (`http://[::1]:8080`).
    static func listening(host: String, port: Int) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }

    /// The `--server` URL in `text`, its scheme lower-cased; exits 2 naming `text` otherwise.
    static func parse(_ text: String) throws -> URL {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", components.host?.isEmpty == false else {
            throw CLIError.badArgument("--server must be an http(s) URL, not \(text)").exit()
        }
        components.scheme = scheme
        guard let url = components.url else {
            throw CLIError.badArgument("--server must be an http(s) URL, not \(text)").exit()
        }
        return url
    }
}
