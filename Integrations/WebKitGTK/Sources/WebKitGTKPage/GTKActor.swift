import Foundation

/// The isolation of everything that touches GTK or WebKit: jobs run on `gtk:main`.
///
/// Start the loop (``GTKMainLoop/start()``) before isolating anything to it: without a
/// display there is no `gtk:main`, and a job given to the actor stops the process.
@globalActor public actor GTKActor {
    /// The actor's one instance.
    public static let shared = GTKActor()

    private static let executor = GTKExecutor()

    /// Runs jobs on `gtk:main`, in order, among the work GTK and WebKit do there.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }

    /// Runs `body` as isolated to the actor; the caller must be on `gtk:main` (a GLib callback,
    /// work posted with `GTKMainLoop.post`). Stops the process otherwise.
    static func assumeIsolated<T>(_ body: @GTKActor () throws -> T) rethrows -> T {
        precondition(GTKMainLoop.isCurrentThread, "a GTK call off gtk:main")
        return try withoutActuallyEscaping(body) { body in
            // The isolation is proven above; the function's representation does not change.
            try unsafeBitCast(body, to: (() throws -> T).self)()
        }
    }
}

/// Runs the actor's jobs on `gtk:main`, in order.
final class GTKExecutor: SerialExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        guard let loop = try? GTKMainLoop.start() else {
            // Nothing can be isolated to GTK without a display; `WebViewPage.make` throws
            // `noDisplay` before anything is scheduled here.
            preconditionFailure("GTKActor used without a display")
        }
        loop.post { job.runSynchronously(on: executor) }
    }

    func checkIsolated() {
        precondition(GTKMainLoop.isCurrentThread, "not on gtk:main")
    }
}
