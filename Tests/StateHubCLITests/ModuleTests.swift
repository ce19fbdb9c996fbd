import Foundation
import StateHubTestSupport
import Testing

/// ES modules through esbuild, `pinia`/`vue` mapped to the runtime.
@Suite("ES modules", .tags(.integration))
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

    @Test func runBundlesAModuleAndMapsPiniaAndVueToTheRuntime() async throws {
        let file = try moduleFolder()
        let result = try await StateHubBinary.run(["run", file.path, "--dispatch", "counter.add", "[1]"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("→ counter.add(1) = 82"), "\(result.stdout)")
    }

    /// Stack lines of a bundled module name the module's own lines, not esbuild's output
    /// (`bad.mjs:17` for a throw on line 7): esbuild's source map takes them back.
    @Test func errorLocationsInAModuleAreTheModulesOwn() async throws {
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
        let dispatched = try await StateHubBinary.run(["run", file.path, "--dispatch", "bad.boom"])
        #expect(dispatched.status == 1)
        #expect(dispatched.stderr.contains("\(file.path):7:"), "\(dispatched.stderr)")
        let top = try StateHubBinary.script("globalThis.failAtTop = true", named: "flag.js")
        let atTop = try await StateHubBinary.run(["run", top.path, file.path])
        #expect(atTop.status == 1)
        #expect(atTop.stderr.contains("\(file.path):12:"), "\(atTop.stderr)")
        #expect(atTop.stderr.contains("\(file.path):15:"), "the caller's line too: \(atTop.stderr)")
        // Frames in the wrapper around the module have no source line: they say so.
        #expect(!atTop.stderr.contains("\(file.path):2"), "a bundle line number is left: \(atTop.stderr)")
    }

    /// A stop in an ES module names the module's own line, not the bundle's, in `--json`'s
    /// `error.stop`, the hub's problem and the trace (`trace show` prints `spin.mjs:8`, not
    /// `spin.mjs:20`). The bundle is evaluated as `spin.mjs#bundle` with the map handed to the
    /// engine, and the page's own text (an action's failure stack) is mapped on its way into
    /// the trace: every place names the module's own line, once.
    @Test func aStopAndAThrowInAModuleNameItsOwnLinesInJSONAndTheTrace() async throws {
        let source = """
            import { defineStore } from 'pinia'

            export const useM = defineStore('m', {
              state: () => ({ n: 0 }),
              actions: {
                spin() {
                  let i = 0; while (true) { i++ }
                },
                boom() {
                  throw new Error('boom on line 10')
                },
              },
            })
            useM()
            """
        let file = try StateHubBinary.script(source, named: "spin.mjs")
        let trace = file.deletingLastPathComponent().appendingPathComponent("spin.ndjson")
        let arguments = ["run", file.path, "--time-limit", "0.5", "--dispatch", "m.spin()", "--dispatch", "m.boom()"]
        let text = try await StateHubBinary.run(arguments + ["--trace", trace.path])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stderr.contains("\(file.path):7: stopped after 0.5 s"), "\(text.stderr)")
        #expect(text.stderr.contains("boom@\(file.path):10:"), "\(text.stderr)")
        #expect(!text.stderr.contains("#bundle"), "\(text.stderr)")

        let json = try await StateHubBinary.run(arguments + ["--json"])
        let object = try JSONOutputTests.object(json)
        let stop = try #require((object["error"] as? [String: Any])?["stop"] as? [String: Any], "\(json.stdout)")
        #expect(stop["file"] as? String == file.path, "\(stop)")
        #expect(stop["line"] as? Int == 7, "\(stop)")
        let dispatches = try #require(object["dispatches"] as? [[String: Any]], "\(json.stdout)")
        #expect(dispatches.map { $0["line"] as? Int } == [7, 10], "\(json.stdout)")
        #expect(dispatches.map { $0["file"] as? String } == [file.path, file.path], "\(json.stdout)")
        #expect((dispatches.first?["stop"] as? [String: Any])?["line"] as? Int == 7, "\(json.stdout)")
        let problems = try #require(object["problems"] as? [String], "\(json.stdout)")
        #expect(problems.count == 1 && problems[0].contains("\(file.path):7: stopped"), "\(problems)")
        #expect(!json.stdout.contains("#bundle"), "\(json.stdout)")

        let recorded = try String(contentsOf: trace, encoding: .utf8)
        #expect(!recorded.contains("#bundle"), "\(recorded)")
        #expect(recorded.contains("\(file.path):10:"), "the failure's stack: \(recorded)")
        let shown = try await StateHubBinary.run(["trace", "show", trace.path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("! \(file.path):7: stopped after 0.5 s"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("#bundle"), "\(shown.stdout)")
    }

    @Test func bundleWritesAClassicScriptThatEvalLoads() async throws {
        let file = try moduleFolder()
        let out = file.deletingLastPathComponent().appendingPathComponent("counter.bundle.js")
        let bundled = try await StateHubBinary.run(["bundle", file.path, "-o", out.path])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(!text.contains("import {"))
        let check = try StateHubBinary.script("console.log(getActivePinia()._s.get('counter').double)", named: "check.js")
        let result = try await StateHubBinary.run(["eval", out.path, check.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "80\n")
    }

    /// `-o out/app.js` with no `out/` creates the folder, with and without --sourcemap,
    /// rather than exiting 2 naming `out/app.js.map`; a folder that cannot be created is
    /// named (a file stands where it should be).
    @Test func bundleCreatesAMissingOutputFolder() async throws {
        let file = try moduleFolder()
        let root = file.deletingLastPathComponent()
        for (folder, flags) in [("out", [String]()), ("mapped/deeper", ["--sourcemap"])] {
            let out = root.appendingPathComponent(folder).appendingPathComponent("app.js")
            let bundled = try await StateHubBinary.run(["bundle", file.path, "-o", out.path] + flags)
            #expect(bundled.status == 0, "\(folder): \(bundled.stderr)")
            #expect(try String(contentsOf: out, encoding: .utf8).contains("defineStore"), "\(folder)")
            #expect(FileManager.default.fileExists(atPath: out.path + ".map") == !flags.isEmpty, "\(folder)")
        }
        let blocker = root.appendingPathComponent("taken")
        try "not a folder".write(to: blocker, atomically: true, encoding: .utf8)
        let blocked = try await StateHubBinary.run(["bundle", file.path, "-o", blocker.appendingPathComponent("app.js").path])
        #expect(blocked.status == 2, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("cannot write \(blocker.path)/app.js: the folder \(blocker.path) is missing and could not be created"), "\(blocked.stderr)")
        #expect(!blocked.stderr.contains(".map"), "\(blocked.stderr)")
    }

    /// `bundle --sourcemap` writes esbuild's own map beside the output, shifted for the
    /// wrapper's first line and with sources relative to the map: node, a real consumer of
    /// maps, names the module's own file and line for a throw in the bundle.
    @Test func bundleWritesASourceMapThatNodeReads() async throws {
        let main = try StateHubBinary.script("import { double } from './lib.mjs'\nconsole.log(double(2))\n", named: "main.mjs")
        let folder = main.deletingLastPathComponent()
        try "export function double(x) {\n  if (x > 1) throw new Error('too big')\n  return x * 2\n}\n"
            .write(to: folder.appendingPathComponent("lib.mjs"), atomically: true, encoding: .utf8)
        let outFolder = folder.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: outFolder, withIntermediateDirectories: true)
        let out = outFolder.appendingPathComponent("main.js")
        let bundled = try await StateHubBinary.run(["bundle", main.path, "-o", out.path, "--sourcemap"])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8).hasSuffix("//# sourceMappingURL=main.js.map\n"))
        let map = try JSONSerialization.jsonObject(with: Data(contentsOf: outFolder.appendingPathComponent("main.js.map"))) as? [String: Any]
        #expect(map?["version"] as? Int == 3)
        #expect(Set(map?["sources"] as? [String] ?? []) == ["../main.mjs", "../lib.mjs"])
        #expect(map?["file"] as? String == "main.js")

        let node = Process()
        node.executableURL = URL(fileURLWithPath: "/usr/bin/node")   // installed by scripts/ensure-deps.sh
        node.arguments = ["--enable-source-maps", out.path]
        let err = Pipe()
        node.standardError = err
        node.standardOutput = Pipe()
        try node.run()
        let text = String(decoding: await err.fileHandleForReading.readToEndOffThePool(), as: UTF8.self)
        await node.exitedOffThePool()
        #expect(text.contains("at double (\(folder.appendingPathComponent("lib.mjs").path):2:20)"), "\(text)")

        let noOutput = try await StateHubBinary.run(["bundle", main.path, "--sourcemap"])
        #expect(noOutput.status == 2)
        #expect(noOutput.stderr.contains("--sourcemap needs -o OUT"))
    }

    @Test func aModuleSyntaxErrorSaysWhatToDo() async throws {
        let file = try StateHubBinary.script("  const y = 2; export { y }\n", named: "hidden.js")
        let result = try await StateHubBinary.run(["eval", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("this is an ES module"), "\(result.stderr)")
        #expect(result.stderr.contains("statehub bundle"), "\(result.stderr)")
    }

    @Test func missingEsbuildIsAHint() async throws {
        let file = try moduleFolder()
        let process = Process()
        process.executableURL = StateHubBinary.url
        process.arguments = ["eval", file.path]
        process.environment = ["PATH": "/nonexistent"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: await err.fileHandleForReading.readToEndOffThePool(), as: UTF8.self)
        await process.exitedOffThePool()
        #expect(process.terminationStatus == 2)
        #expect(stderr.contains("apt-get install esbuild"), "\(stderr)")
    }
}
