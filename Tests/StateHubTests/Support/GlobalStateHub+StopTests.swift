import Clocks
import Testing
import StateHub
import Trace

extension GlobalStateHub {
    /// A hub for tests whose page is stopped by JavaScriptCore's execution time limit, which is
    /// real time: its dispatch deadlines follow a `TestClock` that nobody advances, so every
    /// dispatch ends with the page's own answer (the stop, or the action's result) and never
    /// with the hub's timeout racing a loaded machine. The suite's `.timeLimit` guards against
    /// a hang.
    static func forStopTests(trace: TraceRecorder? = nil) -> GlobalStateHub {
        GlobalStateHub(configuration: .init(trace: trace, clock: TestClock()))
    }
}

/// The hang guard of a suite whose tests wait on JavaScriptCore's real-time stops (a dispatch
/// on a clock nobody advances has no deadline of its own): far past what the slowest of them
/// takes on a loaded machine, never the thing asserted. Beside two busy loops a recovery test
/// takes several minutes; past the limit every later wait of the test returns cancelled.
let stopSuiteTimeLimit: TimeLimitTrait = .timeLimit(.minutes(20))
