import Foundation

extension Process {
    /// Starts the process and suspends until it exits, holding no thread meanwhile.
    ///
    /// `waitUntilExit()` blocks its caller's thread; called from a test it blocks one of the
    /// cooperative pool's threads, of which a 2-core machine has two, and every other test's
    /// tasks wait behind it.
    package func runUntilExit() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            terminationHandler = { _ in continuation.resume() }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
