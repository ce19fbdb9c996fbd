import NIOCore
import NIOPosix

extension StateHubServer {
    /// Makes NIO's event loops (`MultiThreadedEventLoopGroup.singleton`, which the server's
    /// sockets use) Swift Concurrency's global executor, for a process that is a server and
    /// nothing else (`statehub serve`). Without it every request hops from the socket's event
    /// loop to the concurrency pool and back for its answer: on 2 cores the hops and the
    /// pool's scheduling cost more than the handlers (docs/benchmarks.md, "Server").
    ///
    /// Process-wide and once only: call it before serving, in an executable that runs no
    /// blocking work on the global executor (an engine has its own thread; SQLite its own
    /// thread pool). An app that embeds the server decides for itself.
    /// - Returns: whether the executor was installed (`false` where NIO cannot, e.g. Windows).
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
