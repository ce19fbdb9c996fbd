import Testing
@testable import JSEngine

/// Engines used from many Swift tasks at once.
@Suite("Concurrency", .tags(.engine))
struct ConcurrencyTests {
    @Test func manyEnginesManyTasks() async throws {
        let engineCount = 8
        let tasksPerEngine = 50
        var engines: [JavaScriptEngine] = []
        for index in 0..<engineCount {
            let engine = try JavaScriptEngine(configuration: .init(name: "concurrent-\(index)"))
            try await engine.evaluate("var total = 0; var seen = []; function add(n) { total += n; seen.push(n); return total; }")
            try await engine.bind("square") { arguments in .number((arguments.first?.numberValue ?? 0) * (arguments.first?.numberValue ?? 0)) }
            engines.append(engine)
        }
        let functions = try await withThrowingTaskGroup(of: (Int, JSFunction).self) { group in
            for (index, engine) in engines.enumerated() {
                group.addTask { (index, try await engine.function("add")) }
            }
            var result: [Int: JSFunction] = [:]
            for try await (index, function) in group { result[index] = function }
            return result
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, engine) in engines.enumerated() {
                guard let add = functions[index] else { continue }
                for task in 1...tasksPerEngine {
                    group.addTask {
                        switch task % 3 {
                        case 0: _ = try await engine.call(add, [.number(Double(task))])
                        case 1: _ = try await engine.evaluate("add(square(1) * \(task))")
                        default: _ = try await engine.evaluateAndAwait("Promise.resolve(\(task)).then(add)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let expectedTotal = Double((1...tasksPerEngine).reduce(0, +))
        for engine in engines {
            #expect(try await engine.evaluate("total") == .number(expectedTotal))
            #expect(try await engine.evaluate("seen.length") == .number(Double(tasksPerEngine)))
            #expect(try await engine.evaluate("new Set(seen).size") == .number(Double(tasksPerEngine)))
        }
    }

    @Test func oneEngineFromManyTasksKeepsEachCallWhole() async throws {
        let engine = try JavaScriptEngine()
        try await engine.evaluate("var counter = 0; function next() { const before = counter; counter = before + 1; return before; }")
        let next = try await engine.function("next")
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<400 { group.addTask { try await engine.call(next).intValue ?? -1 } }
            var values: [Int] = []
            for try await value in group { values.append(value) }
            return values
        }
        #expect(Set(values) == Set(0..<400))
    }
}
