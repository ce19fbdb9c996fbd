import JSEngine
import StateHub
import StateHubPage
import Testing
import Trace

@Suite struct HostedPageTests {
    static let counter = HostedPage.Bundle(path: "counter.js", source: """
        const useCounter = defineStore('counter', {
          state: () => ({ count: 0 }),
          actions: {
            add(n) { this.count += n; return this.count },
            spin() { while (true) {} },
            async title() { document.title = 'Counted'; return typeof invokeNative },
          },
        });
        useCounter();
        """)

    @Test func oneCallBuildsAPageWhoseStoresAreMirrored() async throws {
        let page = try await HostedPage.make(.init(bundles: [Self.counter]))
        let result = try await page.hub.dispatch(store: "counter", action: "add", args: [2])
        #expect(result == 2)
        #expect(page.hub.state(of: "counter") == ["count": 2])
        // The environment: document and invokeNative are there, as in `statehub run`.
        #expect(try await page.hub.dispatch(store: "counter", action: "title") == "function")
        await page.close()
    }

    @Test func anActionPastTheTimeLimitIsATypedStopAProblemAndATraceRecord() async throws {
        let recorder = TraceRecorder()
        let page = try await HostedPage.make(.init(bundles: [Self.counter], timeLimit: .milliseconds(300), trace: recorder))
        await #expect {
            try await page.hub.dispatch(store: "counter", action: "spin")
        } throws: { error in
            guard case StateHubError.stopped(let store, let action, _, _) = error else { return false }
            return store == "counter" && action == "spin"
        }
        #expect(page.hub.problems.contains { if case .stopped(action: "spin", _) = $0.kind { true } else { false } })
        #expect(recorder.records.contains { $0.type == "stopped" && $0.store == "counter" })
        await page.close()
    }

    @Test func aBundleThatThrowsIsNamed() async throws {
        await #expect {
            _ = try await HostedPage.make(.init(bundles: [.init(path: "bad.js", source: "throw new Error('no')")]))
        } throws: { error in
            guard case HostedPageError.bundle(let path, let underlying) = error else { return false }
            return path == "bad.js" && (underlying as? JavaScriptError)?.message == "no"
        }
    }
}
