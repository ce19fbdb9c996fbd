import Foundation
import StateHubTestSupport
import Testing

/// A real Yjs client in a `node` child process (Peers/yjs-peer.cjs with Debian's node-yjs and
/// node-y-websocket under NODE_PATH=/usr/share/nodejs). Missing `node` or packages make the
/// test fail, never skip: the process does not start or says so on stderr and exits.
final class YjsPeer: Sendable {
    private let process: Process
    private let input: FileHandle
    private let events = Locked(Events())
    /// A tick for each line the peer writes and for its end.
    private let arrivals: AsyncStream<Void>
    let name: String

    private struct Events {
        var lines: [[String: AnyHashableSendable]] = []
        var cursor = 0
        var ended = false
        var stderr = ""
    }

    static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers")

    convenience init(name: String, port: Int, document: String, token: String) throws {
        try self.init(name: name, server: "ws://127.0.0.1:\(port)/sync", document: document, token: token)
    }

    /// A peer of the sync server at `server` (the URL a `WebsocketProvider` is given), running
    /// `script` (default Peers/yjs-peer.cjs; another script speaks other commands over the same lines).
    init(name: String, server: String, document: String, token: String, script: URL = YjsPeer.peers.appendingPathComponent("yjs-peer.cjs")) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", script.path, server, document, token]
        var environment = ProcessInfo.processInfo.environment
        environment["NODE_PATH"] = "/usr/share/nodejs"
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        let events = self.events
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.arrivals = arrivals
        let buffer = Locked(Data())
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                events.withLock { $0.ended = true }
                arrived.yield()
                arrived.finish()
                return
            }
            let lines = buffer.withLock { buffer -> [Data] in
                buffer.append(chunk)
                var lines: [Data] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(buffer[buffer.startIndex..<newline])
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return lines
            }
            for line in lines {
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                events.withLock { $0.lines.append(object.mapValues { AnyHashableSendable($0) }) }
                arrived.yield()
            }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty { handle.readabilityHandler = nil; return }
            events.withLock { $0.stderr += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
    }

    func send(_ command: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: command)
        try input.write(contentsOf: data + Data([0x0A]))
    }

    /// The next event named `event` that `matches`, or `nil` when the peer exited first. Past
    /// ``eventWaitDeadline`` it records an issue that names the event, and returns `nil`.
    @discardableResult
    func next(_ event: String, where matches: @escaping @Sendable ([String: AnyHashableSendable]) -> Bool = { _ in true },
              sourceLocation: SourceLocation = #_sourceLocation) async -> [String: AnyHashableSendable]? {
        let found = Locked<[String: AnyHashableSendable]?>(nil)
        let events = events
        await waitUntil("yjs peer \(name): event \(event)", notifiedBy: arrivals,
                        observed: { "stderr: \(events.withLock { $0.stderr })" }, sourceLocation: sourceLocation) {
            events.withLock { events -> Bool in
                while events.cursor < events.lines.count {
                    let line = events.lines[events.cursor]
                    events.cursor += 1
                    if line["event"]?.string == event && matches(line) {
                        found.withLock { $0 = line }
                        return true
                    }
                }
                return events.ended
            }
        }
        return found.withLock { $0 }
    }

    /// Sets `key` and waits for the peer to say it did.
    func set(_ key: String, _ value: String) async throws {
        try send(["op": "set", "key": key, "value": value])
        guard await next("ok", where: { $0["op"]?.string == "set" }) != nil else { throw failure("set \(key)") }
    }

    /// Waits until the peer's map holds `key` = `value`.
    func waitFor(_ key: String, _ value: String) async throws {
        try send(["op": "waitFor", "key": key, "value": value])
        guard await next("ok", where: { $0["op"]?.string == "waitFor" && $0["key"]?.string == key }) != nil else {
            throw failure("waiting for \(key) = \(value)")
        }
    }

    /// The peer's map as string pairs.
    func dump() async throws -> [String: String] {
        try send(["op": "dump"])
        guard let line = await next("dump"), let map = line["map"]?.value as? [String: Any] else { throw failure("dump") }
        return map.compactMapValues { $0 as? String }
    }

    func failure(_ what: String) -> SyncTestError {
        SyncTestError("yjs peer \(name): \(what) failed; stderr: \(events.withLock { $0.stderr })")
    }

    /// Everything the peer wrote to stderr so far.
    var stderr: String { events.withLock { $0.stderr } }

    func stop() {
        try? send(["op": "exit"])
        try? input.close()
        process.waitUntilExit()
    }
}

/// A JSON value from the peer, carried across tasks.
struct AnyHashableSendable: @unchecked Sendable {
    // JSONSerialization's values (String, NSNumber, arrays, dictionaries) are immutable.
    let value: Any
    init(_ value: Any) { self.value = value }
    var string: String? { value as? String }
}
