import Foundation

/// A long-lived peer process (Yjs under node, Yrs under python3) spoken to in JSON lines.
/// Missing tools make the test fail with the command that could not start.
///
/// Replies are read by a thread of the peer's own and awaited, so a test talking to a peer
/// holds no thread of the cooperative pool while the peer works: a 2-core machine's pool has
/// two, and a blocked one starved every other test of the full run.
final class PeerProcess {
    enum Kind { case yjs, yrs }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let kind: Kind
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()
    private var chunks: AsyncStream<Data>.Iterator

    static var peersFolder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers") }

    /// `script`: a file in Peers/ other than the kind's own peer (a node script for `.yjs`).
    init(_ kind: Kind, script: String? = nil) throws {
        self.kind = kind
        var environment = ProcessInfo.processInfo.environment
        switch kind {
        case .yjs:
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["node", Self.peersFolder.appendingPathComponent(script ?? "yjs-peer.cjs").path]
            environment["NODE_PATH"] = "/usr/share/nodejs"
        case .yrs:
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-u", Self.peersFolder.appendingPathComponent("yrs-peer.py").path]
        }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        chunks = stream.makeAsyncIterator()
        try process.run()
        let reading = output.fileHandleForReading
        Thread {
            while true {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                continuation.yield(chunk)
            }
            continuation.finish()
        }.start()
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends one command and returns the reply's fields; a peer error throws.
    @discardableResult
    func send(_ command: [String: Any]) async throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: command)
        input.fileHandleForWriting.write(data + Data("\n".utf8))
        // Only bytes not yet searched are searched for the newline: a reply of megabytes
        // arrives in many chunks, and searching the whole buffer after each would be quadratic.
        var searched = 0
        while true {
            if let newline = buffer[(buffer.startIndex + searched)...].firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                guard let reply = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { throw Failure(description: "unreadable reply") }
                if reply["ok"] as? Bool != true { throw Failure(description: "\(kind) peer: \(reply["error"] ?? "?") for \(command["op"] ?? "?")") }
                return reply
            }
            searched = buffer.count
            guard let chunk = await chunks.next() else { throw Failure(description: "\(kind) peer exited (is \(kind == .yjs ? "node with node-yjs" : "python3 with pycrdt") installed?)") }
            buffer.append(chunk)
        }
    }

    func bytes(_ reply: [String: Any], _ field: String) throws -> [UInt8] {
        guard let text = reply[field] as? String, let data = Data(base64Encoded: text) else { throw Failure(description: "missing \(field)") }
        return [UInt8](data)
    }
}

func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
