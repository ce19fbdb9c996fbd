#if canImport(CJSCore)
import CJSCore
#else
import JavaScriptCore
#endif

extension ScriptContext {
    /// Runs `body` inside one call into JavaScript, so that everything it does with the
    /// context belongs to one task: microtasks drain, and unhandled rejections are checked,
    /// only once `body` has returned.
    ///
    /// Awaiting a promise from Swift needs this. Evaluated on its own, a script that returns
    /// an already rejected promise would reach the end of its task (where JavaScriptCore
    /// reports rejections nobody handles) before Swift could attach its handlers, and the
    /// rejection Swift is about to handle would be reported as unhandled.
    ///
    /// Errors thrown by `body` are rethrown as they are; when it ran, its outcome wins over
    /// whatever ending the task raised (a termination by the time limit, typically).
    func runAsOneTask<T>(_ body: () throws -> T) throws -> T {
        let runner = try taskRunnerFunction()
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, any Error>?
            let previous = taskBody
            taskBody = { result = Result { try body() } }
            defer { taskBody = previous }
            let entry = Result { try callRaw(runner, arguments: []) }
            if let result { return try result.get() }
            _ = try entry.get()
            throw EngineError.closed
        }
    }

    private func taskRunnerFunction() throws -> JSObjectRef {
        if let taskRunner { return taskRunner }
        let context = try live()
        // Not timed as native work: the body runs the page's JavaScript (an action).
        let runner = try makeFunction(named: "task", timed: false) { owner, _, _ in
            owner.taskBody?()
            return nil
        }
        JSValueProtect(context, runner)
        taskRunner = runner
        return runner
    }
}
