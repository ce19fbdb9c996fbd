import ArgumentParser
import JSEngine
import StateHub
import Trace

extension RunCommand {
    /// `--hot-swap FILE`: replaces the page's store code with each file in turn (Pinia's hot
    /// module replacement: stores keep their state, their mirrors see one change) and prints
    /// which stores each swap updated.
    ///
    /// ES modules are bundled with esbuild first, as files given to `run` are. A classic script
    /// that declares a top-level `const`/`let`/`class` a loaded script already declared fails
    /// in JavaScriptCore ("duplicate variable"): the error gets a hint (wrap it in an IIFE, or
    /// bundle it).
    ///
    /// - Returns: `false` when a file's code threw or was stopped (printed; the page stays usable).
    /// - Throws: exit code 2 for an unreadable file, 1 (or 2 without esbuild) when a module
    ///   cannot be bundled.
    func hotSwap(_ engine: JavaScriptEngine, trace: TraceRecorder?) async throws -> Bool {
        guard !hotSwapFiles.isEmpty else { return true }
        let files: [ScriptFile]
        do { files = try ScriptFile.readAll(hotSwapFiles) } catch { throw error.exit() }
        var succeeded = true
        for file in files {
            var source = file.source
            var sourceURL = file.path
            if ModuleBundler.needsBundling(file) {
                // Its own name (the engine has no map for a swap: the CLI's rewriting maps it).
                sourceURL = file.path + "#hot-swap"
                do { source = try ModuleBundler.bundle(path: file.path, sourceURL: sourceURL).code } catch {
                    Output.error(error.description)
                    if case .esbuildMissing = error { throw ExitCode(2) }
                    throw ExitCode(1)
                }
            }
            do {
                let stores = try await engine.hotSwap(source, sourceURL: sourceURL, trace: trace)
                Output.line("⟳ hot-swapped \(file.path): \(stores.isEmpty ? "no live store" : stores.joined(separator: ", "))")
            } catch let error as JavaScriptError {
                succeeded = false
                Output.error("✗ hot swap of \(file.path) failed: \(ConsolePrinter.describe(error))")
                if let hint = Self.redeclarationHint(error, file: file.path) { Output.error(hint) }
            } catch let error as EngineError where error.stop != nil {
                // Stopped by the time limit: printed as every stop is, and the page goes on
                // (its stores and mirrors are printed after), as after a swap that threw.
                succeeded = false
                if var stop = error.stop {
                    if stop.sourceURL.map({ $0.isEmpty }) ?? true { stop.sourceURL = file.path }
                    Output.error("✗ hot swap of \(file.path) was stopped: \(SourceMaps.shared.rewrite(Report.describe(stop)))")
                }
            } catch {
                succeeded = false
                Output.error("✗ hot swap of \(file.path) failed: \(error)")
            }
        }
        return succeeded
    }

    /// What to do when a swapped classic script redeclares a top-level binding.
    static func redeclarationHint(_ error: JavaScriptError, file: String) -> String? {
        let message = error.message
        guard message.contains("duplicate variable") || message.contains("variable twice") else { return nil }
        return "  hint: a swapped file runs in the page that already ran the code it replaces, so its top-level "
            + "const/let/class names are declared twice. Wrap the file in an IIFE, (() => { … })(), or write it as "
            + "an ES module (import { defineStore } from 'pinia'; it is bundled into one), or bundle it yourself: "
            + "statehub bundle \(file) -o OUT.js"
    }
}
