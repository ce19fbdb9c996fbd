#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Serves one page on 127.0.0.1 for `statehub trace view`: every GET gets the page (`/`) or
/// 404. Loopback only, one connection at a time, requests read up to 64 KiB: a viewer for
/// one person, not a web server.
enum LoopbackServer {
    enum Failure: Error, CustomStringConvertible {
        case socket(String)
        var description: String { switch self { case .socket(let why): "cannot serve on 127.0.0.1: \(why)" } }
    }

    /// Binds and listens; returns the descriptor and the port (an ephemeral one for 0).
    static func listen(port: UInt16) throws(Failure) -> (Int32, UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .socket(String(cString: strerror(errno))) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, startListening(fd) == 0 else { close(fd); throw .socket(String(cString: strerror(errno))) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    private static func startListening(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(fd, 16)
        #else
        Darwin.listen(fd, 16)
        #endif
    }

    /// Answers requests forever on the calling thread.
    static func serve(_ fd: Int32, page: [UInt8]) -> Never {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            var request: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while request.count < 65_536 {
                let n = read(client, &buffer, buffer.count)
                if n <= 0 { break }
                request.append(contentsOf: buffer[0..<n])
                if request.count >= 4, request.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
            }
            let line = String(decoding: request.prefix(while: { $0 != 13 && $0 != 10 }), as: UTF8.self)
            let parts = line.split(separator: " ")
            let path = parts.count > 1 ? String(parts[1]) : "/"
            let ok = parts.first == "GET" && (path == "/" || path.hasPrefix("/?") || path == "/index.html")
            let body = ok ? page : Array("not found\n".utf8)
            let head = "HTTP/1.1 \(ok ? "200 OK" : "404 Not Found")\r\nContent-Type: \(ok ? "text/html; charset=utf-8" : "text/plain")\r\nContent-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
            writeAll(client, Array(head.utf8) + body)
            close(client)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            while offset < raw.count {
                let n = write(fd, base + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; return }
                offset += n
            }
        }
    }
}
