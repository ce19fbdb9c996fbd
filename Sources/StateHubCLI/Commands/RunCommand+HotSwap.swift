import ArgumentParser
import JSEngine
import StateHub
import Trace

extension RunCommand {
    /// `--hot-swap FILE`: replaces the page's store code with each file in turn (Pinia's hot
    /// module replacement: stores keep their state, their mirrors see one change) and prints
    /// which stores each swap updated.
    ///
    /// - Returns: `false` when a file's code threw (printed; the page stays usable).
    /// - Throws: exit code 2 for an unreadable file.
    func hotSwap(_ engine: JavaScriptEngine, trace: TraceRecorder?) async throws -> Bool {
        guard !hotSwapFiles.isEmpty else { return true }
        let files: [ScriptFile]
        do { files = try ScriptFile.readAll(hotSwapFiles) } catch { throw error.exit() }
        var succeeded = true
        for file in files {
            do {
                let stores = try await engine.hotSwap(file.source, sourceURL: file.path, trace: trace)
                Output.line("⟳ hot-swapped \(file.path): \(stores.isEmpty ? "no live store" : stores.joined(separator: ", "))")
            } catch let error as JavaScriptError {
                succeeded = false
                Output.error("✗ hot swap of \(file.path) failed: \(ConsolePrinter.describe(error))")
            }
        }
        return succeeded
    }
}
