import Foundation
import Testing

/// Issue 12 item 3: ES modules through esbuild, `pinia`/`vue` mapped to the runtime.
@Suite("ES modules")
struct ModuleTests {
    static let store = """
        import { defineStore } from 'pinia'
        import { ref, computed } from 'vue'
        import { start } from './start.mjs'
        export const useCounter = defineStore('counter', () => {
          const count = ref(start())
          const double = computed(() => count.value * 2)
          function add(n) { count.value += n; return double.value }
          return { count, double, add }
        })
        useCounter()
        """

    func moduleFolder() throws -> URL {
        let file = try StateHubBinary.script(Self.store, named: "counter.mjs")
        try "export function start() { return 40 }\n".write(to: file.deletingLastPathComponent().appendingPathComponent("start.mjs"), atomically: true, encoding: .utf8)
        return file
    }

    @Test func runBundlesAModuleAndMapsPiniaAndVueToTheRuntime() throws {
        let file = try moduleFolder()
        let result = try StateHubBinary.run(["run", file.path, "--dispatch", "counter.add", "[1]"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ counter.add(1) = 82"), "\(result.stdout)")
    }

    /// New-user review: stack lines of a bundled module named esbuild's output (`bad.mjs:17`
    /// for a throw on line 7); esbuild's source map now takes them back to the module.
    @Test func errorLocationsInAModuleAreTheModulesOwn() throws {
        let source = """
            import { defineStore } from 'pinia'

            export const useBad = defineStore('bad', {
              state: () => ({ n: 0 }),
              actions: {
                boom() {
                  throw new Error('boom on line 7')
                },
              },
            })
            function top() {
              throw new Error('top on line 12')
            }
            useBad()
            if (globalThis.failAtTop) top()
            """
        let file = try StateHubBinary.script(source, named: "bad.mjs")
        let dispatched = try StateHubBinary.run(["run", file.path, "--dispatch", "bad.boom"])
        #expect(dispatched.status == 1)
        #expect(dispatched.stderr.contains("\(file.path):7:"), "\(dispatched.stderr)")
        let top = try StateHubBinary.script("globalThis.failAtTop = true", named: "flag.js")
        let atTop = try StateHubBinary.run(["run", top.path, file.path])
        #expect(atTop.status == 1)
        #expect(atTop.stderr.contains("\(file.path):12:"), "\(atTop.stderr)")
        #expect(atTop.stderr.contains("\(file.path):15:"), "the caller's line too: \(atTop.stderr)")
        // Frames in the wrapper around the module have no source line: they say so.
        #expect(!atTop.stderr.contains("\(file.path):2"), "a bundle line number is left: \(atTop.stderr)")
    }

    @Test func bundleWritesAClassicScriptThatEvalLoads() throws {
        let file = try moduleFolder()
        let out = file.deletingLastPathComponent().appendingPathComponent("counter.bundle.js")
        let bundled = try StateHubBinary.run(["bundle", file.path, "-o", out.path])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(!text.contains("import {"))
        let check = try StateHubBinary.script("console.log(getActivePinia()._s.get('counter').double)", named: "check.js")
        let result = try StateHubBinary.run(["eval", out.path, check.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "80\n")
    }

    @Test func aModuleSyntaxErrorSaysWhatToDo() throws {
        let file = try StateHubBinary.script("  const y = 2; export { y }\n", named: "hidden.js")
        let result = try StateHubBinary.run(["eval", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("this is an ES module"), "\(result.stderr)")
        #expect(result.stderr.contains("statehub bundle"), "\(result.stderr)")
    }

    @Test func missingEsbuildIsAHint() throws {
        let file = try moduleFolder()
        let process = Process()
        process.executableURL = StateHubBinary.url
        process.arguments = ["eval", file.path]
        process.environment = ["PATH": "/nonexistent"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stderr.contains("apt-get install esbuild"), "\(stderr)")
    }
}
