/// Where a document syncs and how a client behaves when the connection fails.
public struct SyncConfiguration: Sendable {
    /// The server's sync URL without the document, e.g. `wss://sync.example.com/sync`; the
    /// client connects to `{server}/{document}?token=…&ack=1`, as a Yjs `WebsocketProvider` does.
    public var server: String
    /// The document token (docs/sync.md §2.3), sent as the `token` query parameter.
    public var token: String?
    /// Ask the server for write acknowledgements (our server; docs/sync.md §1.4). Without
    /// them (a `y-websocket` server) an update counts as kept once the server's answer to a
    /// later sync step 1 shows it (§3.3).
    public var acknowledgements: Bool
    /// The first wait before reconnecting; doubled after each failure up to
    /// ``maximumRetryDelay``, with ±20 % jitter, and reset once synced.
    public var initialRetryDelay: Duration
    public var maximumRetryDelay: Duration
    /// How long changes from the server may wait before the snapshot on disk is rewritten.
    public var snapshotDelay: Duration
    /// What the waits above are measured on: the continuous clock, or a test's own clock (a
    /// `TestClock` makes the back-off advance only when the test says so).
    public var clock: any Clock<Duration>

    public init(server: String, token: String? = nil, acknowledgements: Bool = true,
                initialRetryDelay: Duration = .milliseconds(100), maximumRetryDelay: Duration = .seconds(30),
                snapshotDelay: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()) {
        self.server = server
        self.token = token
        self.acknowledgements = acknowledgements
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.snapshotDelay = snapshotDelay
        self.clock = clock
    }

    /// The URL for `document`.
    func url(for document: String) throws(SyncClientError) -> String {
        guard server.hasPrefix("ws://") || server.hasPrefix("wss://") else {
            throw SyncClientError(.invalidServer("\(server) does not start with ws:// or wss://"))
        }
        guard !server.contains("?"), !server.contains("#") else {
            throw SyncClientError(.invalidServer("\(server) has a query or fragment; give the sync path only"))
        }
        var query: [String] = []
        if let token { query.append("token=" + Self.percentEncoded(token)) }
        if acknowledgements { query.append("ack=1") }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        return base + "/" + document + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Unreserved characters stay; everything else is %XX of its UTF-8 bytes.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    /// The server's rule for names (docs/sync.md §1.1), checked before anything is stored.
    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...128).contains(bytes.count) else { return false }
        func allowed(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): !first
            default: false
            }
        }
        return bytes.enumerated().allSatisfy { allowed($0.element, first: $0.offset == 0) }
    }
}
