import ArgumentParser
import JSEngine
import JSSources
import StateHub

/// `statehub bench collections`: what mirroring a `Map` changed in
/// place costs. Each `map.set` is sent as an entry op (docs/PROTOCOL.md A.3.1), so its cost
/// should not grow with the Map; the baseline is the same write on a plain object of the same
/// size (a `set` of one key).
struct CollectionsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "collections", abstract: "Mirroring Map writes (entry ops) against object writes, in one run.")

    @OptionGroup var options: BenchOptions

    func run() async throws {
        try await BenchRunner.run(name: "collections", options: options) {
            try await CollectionsBenchmark(repetitions: options.repetitions).run()
        }
    }
}

struct CollectionsBenchmark {
    var repetitions: Int
    var writes = 2_000

    func run() async throws -> [Figure] {
        let engine = try JavaScriptEngine(configuration: .init(name: "bench-collections"))
        for (name, source) in StoreScripts.piniaRuntime { try await engine.execute(source, sourceURL: name) }
        try await engine.execute(JSSources.files["plugin/sync-plugin.js"] ?? "", sourceURL: "plugin/sync-plugin.js")
        var figures: [Figure] = []
        for size in [10, 100, 1_000] {
            var mapMicros: [Double] = [], objectMicros: [Double] = [], mapBytes: [Double] = [], objectBytes: [Double] = []
            var mapFill: [Double] = [], objectFill: [Double] = [], mapFillBytes: [Double] = [], objectFillBytes: [Double] = []
            for round in 0..<repetitions {
                let result = try await engine.evaluate(script(size: size, id: "bench.\(size).\(round)"))
                mapMicros.append(result["mapMicros"]?.numberValue ?? 0)
                objectMicros.append(result["objectMicros"]?.numberValue ?? 0)
                mapBytes.append(result["mapBytes"]?.numberValue ?? 0)
                objectBytes.append(result["objectBytes"]?.numberValue ?? 0)
                mapFill.append(result["mapFillMicros"]?.numberValue ?? 0)
                objectFill.append(result["objectFillMicros"]?.numberValue ?? 0)
                mapFillBytes.append(result["mapFillBytes"]?.numberValue ?? 0)
                objectFillBytes.append(result["objectFillBytes"]?.numberValue ?? 0)
            }
            figures += [
                Figure(key: "collections.object_set_\(size)", label: "object key write, \(size) keys, mirrored (flush sync)", unit: "µs", higherIsBetter: false, jit: median(objectMicros)),
                Figure(key: "collections.map_set_\(size)", label: "map.set, \(size) entries, mirrored (flush sync, entry op)", unit: "µs", higherIsBetter: false, jit: median(mapMicros), baselineKey: "collections.object_set_\(size)"),
                Figure(key: "collections.object_bytes_\(size)", label: "message per object key write, \(size) keys", unit: "B", higherIsBetter: false, jit: median(objectBytes)),
                Figure(key: "collections.map_bytes_\(size)", label: "message per map.set, \(size) entries", unit: "B", higherIsBetter: false, jit: median(mapBytes), baselineKey: "collections.object_bytes_\(size)"),
                Figure(key: "collections.object_fill_\(size)", label: "fill an object with \(size) keys in one tick (flush tick)", unit: "µs", higherIsBetter: false, jit: median(objectFill)),
                Figure(key: "collections.map_fill_\(size)", label: "fill a Map with \(size) entries in one tick (flush tick)", unit: "µs", higherIsBetter: false, jit: median(mapFill), baselineKey: "collections.object_fill_\(size)"),
                Figure(key: "collections.object_fill_bytes_\(size)", label: "bytes sent for the object fill", unit: "B", higherIsBetter: false, jit: median(objectFillBytes)),
                Figure(key: "collections.map_fill_bytes_\(size)", label: "bytes sent for the Map fill", unit: "B", higherIsBetter: false, jit: median(mapFillBytes), baselineKey: "collections.object_fill_bytes_\(size)"),
            ]
        }
        return figures
    }

    func script(size: Int, id: String) -> String {
        """
        (() => {
          const pinia = createPinia()
          let bytes = 0, messages = 0
          pinia.use(StateHubSync.createSyncPlugin({ flush: 'sync', post: (text) => { bytes += text.length; messages++ } }))
          const keys = Array.from({ length: \(size) }, (_, i) => 'k' + i)
          const store = defineStore('\(id)', { state: () => ({
            map: new Map(keys.map((k, i) => [k, i])),
            object: Object.fromEntries(keys.map((k, i) => [k, i]))
          }) })(pinia)
          const writes = \(writes)
          let start = performance.now()
          for (let i = 0; i < writes; i++) store.map.set(keys[i % keys.length], i + 1)
          const mapMicros = (performance.now() - start) * 1000 / writes
          const mapBytes = bytes / messages
          bytes = 0; messages = 0
          start = performance.now()
          for (let i = 0; i < writes; i++) store.object[keys[i % keys.length]] = i + 1
          const objectMicros = (performance.now() - start) * 1000 / writes
          const objectBytes = bytes / messages
          store.$dispose()
          // filling in one tick (flush tick): the inserts of a tick join into one splice
          let tickBytes = 0
          const tickPinia = createPinia()
          tickPinia.use(StateHubSync.createSyncPlugin({ post: (text) => { tickBytes += text.length } }))
          const tickStore = defineStore('\(id).tick', { state: () => ({ map: new Map(), object: {} }) })(tickPinia)
          start = performance.now()
          for (const [i, k] of keys.entries()) tickStore.map.set(k, i)
          StateHubSync.flushPending()
          const mapFillMicros = (performance.now() - start) * 1000, mapFillBytes = tickBytes
          tickBytes = 0
          start = performance.now()
          for (const [i, k] of keys.entries()) tickStore.object[k] = i
          StateHubSync.flushPending()
          const objectFillMicros = (performance.now() - start) * 1000, objectFillBytes = tickBytes
          tickStore.$dispose()
          return { mapMicros, objectMicros, mapBytes, objectBytes, mapFillMicros, objectFillMicros, mapFillBytes, objectFillBytes }
        })()
        """
    }
}
