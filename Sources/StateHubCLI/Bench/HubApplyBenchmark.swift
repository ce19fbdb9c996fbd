import JSEngine
import StateHub

/// The hub's receive path under large states and hostile messages: each
/// operation must cost O(path depth + size of the change), never a copy of the container it
/// changes. Messages go straight to `receive` (no engine), as in `hub.native_apply`.
struct HubApplyBenchmark {
    var repetitions = 5

    func run() async throws -> [Figure] {
        var padding: [Double] = []
        var arrayWrites: [Double] = []
        var objectWrites: [Double] = []
        var integerKeyWrites: [Double] = []
        for _ in 0..<repetitions {
            padding.append(try await paddingMessageMilliseconds())
            arrayWrites.append(try await largeContainerWritesMilliseconds(object: false))
            objectWrites.append(try await largeContainerWritesMilliseconds(object: true))
            integerKeyWrites.append(try await largeContainerWritesMilliseconds(object: true, integerKeys: true))
        }
        return [
            Figure(key: "hub.apply_padding_message", label: "one ~10 KB message of 200 writes past an array's end", unit: "ms", higherIsBetter: false, jit: median(padding)),
            Figure(key: "hub.apply_200k_array", label: "1,000 writes into a 200,000-element array (1,000 messages)", unit: "ms", higherIsBetter: false, jit: median(arrayWrites)),
            Figure(key: "hub.apply_200k_object", label: "1,000 writes into a 200,000-key object (1,000 messages)", unit: "ms", higherIsBetter: false, jit: median(objectWrites)),
            Figure(key: "hub.apply_200k_int_keys", label: "1,000 writes into a 200,000-key object, integer-like keys", unit: "ms", higherIsBetter: false, jit: median(integerKeyWrites)),
        ]
    }

    private func hub(initialState: String) async throws -> GlobalStateHub {
        let hub = GlobalStateHub()
        try await hub.attach(SilentPage())
        hub.receive(#"{"v":1,"storeId":"big","messageId":"s1","seq":1,"type":"sync_state","payload":{"state":"# + initialState + #","reason":"created"}}"#, from: "silent")
        guard hub.state(of: "big") != nil else { throw BenchmarkError.mirrorMismatch("initial state refused: \(hub.problems.prefix(2))") }
        return hub
    }

    /// 200 `set`s, each 500 past the end of `pad`: about 10 KB of text, 100,000 elements in the end.
    func paddingMessageMilliseconds() async throws -> Double {
        let hub = try await hub(initialState: #"{"pad":[]}"#)
        let ops = (0..<200).map { #"{"op":"set","path":["pad",\#(($0 + 1) * 500 - 1)],"value":\#($0)}"# }.joined(separator: ",")
        let text = #"{"v":1,"storeId":"big","messageId":"p","seq":2,"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":["# + ops + "]}]}}"
        let start = ContinuousClock.now
        hub.receive(text, from: "silent")
        let elapsed = (ContinuousClock.now - start).seconds
        guard hub.state(of: "big")?["pad"]?.arrayValue?.count == 100_000 else { throw BenchmarkError.mirrorMismatch("padding: \(hub.problems.prefix(2))") }
        return elapsed * 1e3
    }

    /// 1,000 messages of one `set` each into a container of 200,000 elements or keys.
    func largeContainerWritesMilliseconds(object: Bool, integerKeys: Bool = false) async throws -> Double {
        let count = 200_000
        let key: (Int) -> String = { integerKeys ? "\($0)" : "k\($0)" }
        let initial = object
            ? "{\"big\":{" + (0..<count).map { "\"\(key($0 * 2))\":\($0)" }.joined(separator: ",") + "}}"
            : "{\"big\":[" + (0..<count).map(String.init).joined(separator: ",") + "]}"
        let hub = try await hub(initialState: initial)
        let texts = (0..<1_000).map { index -> String in
            // Objects: half the writes replace a key, half add one between existing keys.
            let step = object ? "\"\(key(index * 397 % count + index % 2))\"" : "\(index * 197)"
            return #"{"v":1,"storeId":"big","messageId":"w\#(index)","seq":\#(index + 2),"type":"apply_mutation","payload":{"mutations":[{"type":"direct","ops":[{"op":"set","path":["big",\#(step)],"value":-1}]}]}}"#
        }
        let start = ContinuousClock.now
        for text in texts { hub.receive(text, from: "silent") }
        let elapsed = (ContinuousClock.now - start).seconds
        guard hub.problems.isEmpty else { throw BenchmarkError.mirrorMismatch("large container: \(hub.problems.prefix(2))") }
        return elapsed * 1e3
    }
}
