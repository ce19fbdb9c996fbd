import Foundation
import Synchronization

/// The web side: Examples/Board/web-client.cjs under `node` (Debian's node-yjs and
/// node-y-websocket), driven by one JSON command per line; answers are read back line by line.
final class WebClient: Sendable {
    private let process: Process
    private let input: FileHandle
    private let output = Output()

    /// What the client printed, shared with the pipe's reader.
    private final class Output: Sendable {
        let lines = Mutex<[String]>([])
        let ended = Mutex(false)
        let partial = Mutex(Data())
    }

    init(server: String, document: String, token: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("web-client.cjs")
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", script.path, server, document, token]
        var environment = ProcessInfo.processInfo.environment
        environment["NODE_PATH"] = environment["NODE_PATH"] ?? "/usr/share/nodejs"
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        input = stdin.fileHandleForWriting
        let output = self.output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                output.ended.withLock { $0 = true }
                return
            }
            let complete = output.partial.withLock { buffer -> [String] in
                buffer.append(chunk)
                var found: [String] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    found.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return found
            }
            output.lines.withLock { $0 += complete }
        }
        try process.run()
    }

    /// Sends `command` and returns the first line whose event is `answer` (30 s at most).
    @discardableResult
    func command(_ command: [String: Any], answer: String) async throws -> String {
        try input.write(contentsOf: JSONSerialization.data(withJSONObject: command) + Data([0x0A]))
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let line = output.lines.withLock { lines -> String? in
                guard let index = lines.firstIndex(where: { $0.contains(#""event":"\#(answer)""#) || $0.contains(#""event":"error""#) }) else { return nil }
                return lines.remove(at: index)
            }
            if let line {
                if line.contains(#""event":"error""#) { throw ExampleError("web client: \(line)") }
                return line
            }
            if output.ended.withLock({ $0 }) { throw ExampleError("the web client exited (is node with node-yjs installed? scripts/ensure-deps.sh)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ExampleError("the web client did not answer \(command)")
    }

    func stop() {
        try? input.close()
        process.waitUntilExit()
    }
}
