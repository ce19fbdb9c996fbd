import Foundation
import StateHubTestSupport

/// A loopback HTTP/1.1 listener that gives every request the same canned answer and keeps each
/// request's head: enough to see what a client sends where, and what it sends after a redirect.
final class CannedHTTPServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    let base: URL
    private let listener: Int32
    private let heads = Locked<[String]>([])

    /// The request heads received so far (request line and header fields), in arrival order.
    var requestHeads: [String] { heads.withLock { $0 } }

    /// Listens on a free loopback port and answers every request with `answer` (a status line
    /// and header fields; `Content-Length: 0` and `Connection: close` are added).
    init(answer: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestSupportError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw TestSupportError("bind: \(String(cString: strerror(errno)))")
        }
        guard let base = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))") else {
            close(listener)
            throw TestSupportError("no URL for port \(address.sin_port)")
        }
        self.base = base
        self.listener = listener
        let heads = self.heads
        let reply = Array((answer + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").utf8)
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                let head = Self.readRequest(connection)
                heads.withLock { $0.append(head) }
                _ = reply.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }
    }

    /// Stops listening; the accepting thread ends.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Reads a request's head and its `Content-Length` body (after a `100 Continue` when the
    /// client waits for one), and returns the head.
    private static func readRequest(_ connection: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func readMore() -> Bool {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            bytes += buffer[..<count]
            return true
        }
        let separator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard readMore() else { return String(decoding: bytes, as: UTF8.self) }
            headEnd = bytes.indices.dropLast(3).first { Array(bytes[$0 ..< $0 + 4]) == separator }
        }
        let end = (headEnd ?? 0) + 4
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let fields = head.lowercased().split(separator: "\r\n")
        let contentLength = fields.first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if fields.contains(where: { $0.hasPrefix("expect:") && $0.contains("100-continue") }) {
            let proceed = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = proceed.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        }
        while bytes.count - end < contentLength, readMore() {}
        return head
    }
}
