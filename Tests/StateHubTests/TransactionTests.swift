import Foundation
import JSEngine
import Synchronization
import Testing
@testable import StateHub
import StateHubTesting
import Trace

/// Issue 18 item 3 (docs/transactions.md): actions on stores of two real engines as one unit.
/// Page "shop" hosts `cart`, page "account" hosts `wishlist`, both on one hub.
@Suite("Transactions across engines", .tags(.engine), .timeLimit(.minutes(2)))
struct TransactionTests {
    static let cart = """
        globalThis.useCart = defineStore('cart', {
          state: () => ({ items: ['A1', 'B2'], note: '' }),
          actions: {
            remove(sku) {
              const i = this.items.indexOf(sku);
              if (i < 0) throw new Error('not in cart: ' + sku);
              this.items.splice(i, 1);
              return this.items.length;
            },
            mark(note) { this.note = note; },
          },
        });
        useCart();
        """
    static let wishlist = """
        globalThis.useWishlist = defineStore('wishlist', {
          state: () => ({ items: [], started: false }),
          actions: {
            add(sku) {
              this.items.push(sku);
              if (sku === 'BAD') throw new Error('refused: ' + sku);
              return this.items.length;
            },
            async hang() { this.started = true; await new Promise(() => {}); },
            async waitForGo() {
              this.started = true;
              await new Promise((resolve) => { globalThis.go = resolve; });
              this.items.push('late');
            },
          },
        });
        useWishlist();
        """
    /// The time a unit that should end on its own (commit, or abort for its own reason) gets:
    /// generous, since a passing run never waits for it. 20 s ran out for single dispatches
    /// while the whole suite started at once on two loaded cores (session 26).
    static let unitTimeout: Duration = .seconds(60)
    static let cartBefore: JSONValue = ["items": ["A1", "B2"], "note": ""]
    static let wishlistBefore: JSONValue = ["items": [], "started": false]

    struct Pages {
        let hub: GlobalStateHub
        let shop: JavaScriptEngine
        let account: JavaScriptEngine
        /// Every message across both pages, so a failure can say what crossed and when.
        let trace: TraceRecorder

        /// The messages to and from one page since the hub was made, one a line: milliseconds
        /// since the recorder started, direction, type, seq, and the text (cut at 300 characters).
        func messages(of pageID: String) -> String {
            trace.records.filter { $0.engine == pageID }.map { record in
                let ms = Double(record.time) / 1e6
                let arrow = record.direction == .webToNative ? "web->native" : "native->web"
                let text = record.message.count > 300 ? record.message.prefix(300) + "..." : Substring(record.message)
                return "\(String(format: "%9.1f", ms)) ms \(arrow) \(record.type) seq \(record.seq.map(String.init) ?? "-") \(text)"
            }.joined(separator: "\n")
        }

        /// Milliseconds since the recorder started, for marks a failure message prints beside the messages.
        var now: String { String(format: "%.1f ms", Double(trace.elapsedNanoseconds) / 1e6) }
    }

    func makePages() async throws -> Pages {
        // Big enough for every test here (a timer writing each millisecond through a unit included).
        let trace = TraceRecorder(capacity: 100_000)
        let hub = GlobalStateHub(configuration: .init(trace: trace))
        let shop = try await makePage(hub, name: "shop")
        try await shop.execute(Self.cart)
        let account = try await makePage(hub, name: "account")
        try await account.execute(Self.wishlist)
        return Pages(hub: hub, shop: shop, account: account, trace: trace)
    }

    /// Mirror and page both hold `expected`.
    func expectStore(_ pages: Pages, _ engine: JavaScriptEngine, _ store: String, equals expected: JSONValue,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(pages.hub.state(of: store) == expected, "mirror of \(store)", sourceLocation: sourceLocation)
        #expect(try await engineState(engine, store) == expected, "page's \(store)", sourceLocation: sourceLocation)
    }

    /// The error of a unit run by `unit` (a task, so the test can cancel it), expected to abort;
    /// the test fails if it committed.
    func unitFailure<T: Sendable>(of unit: Task<T, any Error>, sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransactionError {
        guard case .failure(let thrown) = await unit.result else {
            Issue.record("the unit committed", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return try #require(thrown as? TransactionError, sourceLocation: sourceLocation)
    }

    /// The error of a unit expected to abort; the test fails if it committed.
    func unitFailure<T: Sendable>(_ hub: GlobalStateHub, timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation,
                                  _ body: @escaping @Sendable (HubTransaction) async throws -> T) async throws -> TransactionError {
        do {
            _ = try await hub.transaction(timeout: timeout, body)
        } catch {
            return error
        }
        Issue.record("the unit committed", sourceLocation: sourceLocation)
        throw CancellationError()
    }

    @Test func everyStepTakesEffectAndObserversSeeOneChange() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let stream = hub.changes(of: "cart")
        let watcher = await MainActor.run { HistoryObserver(hub, store: "cart") }
        let count = try await hub.transaction(timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            let items = try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
            #expect(hub.state(of: "cart") == Self.cartBefore, "outside the unit, the state before it")
            #expect(tx.state(of: "cart") == ["items": ["B2"], "note": ""], "inside, the live mirror")
            return items
        }
        #expect(count == 1)
        try await expectStore(pages, pages.shop, "cart", equals: ["items": ["B2"], "note": ""])
        try await expectStore(pages, pages.account, "wishlist", equals: ["items": ["A1"], "started": false])
        let seen = try await changes(stream, until: ["items": ["B2"], "note": ""])
        #expect(seen.map(\.state) == [Self.cartBefore, ["items": ["B2"], "note": ""]])
        let released = try #require(seen.last)
        guard case .mutations(let mutations) = released.kind else {
            Issue.record("released as \(released.kind), not as the unit's mutations")
            return
        }
        #expect(!mutations.isEmpty)
        #expect(released.version == hub.version(of: "cart"))
        #expect(await watcher.waitFor(["items": ["B2"], "note": ""]) == [Self.cartBefore, ["items": ["B2"], "note": ""]])
    }

    @Test func secondEngineThrowsRestoresTheFirstAndObserversNeverSawIt() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let stream = hub.changes(of: "cart")
        let watcher = await MainActor.run { HistoryObserver(hub, store: "cart") }
        let error = try await unitFailure(hub, timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            // Give a main-actor observer every chance to see the intermediate state.
            for _ in 0..<5 { await MainActor.run {} }
            try await tx.dispatch(store: "wishlist", action: "add", args: ["BAD"])
        }
        guard case .stepFailed(.actionThrew(store: "wishlist", action: "add", let failure)) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(failure.message == "refused: BAD")
        #expect(error.step == TransactionStep(index: 2, store: "wishlist", action: "add", pageID: "account"))
        #expect(error.unrestored.isEmpty)
        // The first engine's store is back, in its page and its mirror; so is the second's,
        // which the throwing action had written before it threw.
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        // A later change shows what observers saw in all: the state before, then that change.
        try await hub.dispatch(store: "cart", action: "mark", args: ["after"])
        let after: JSONValue = ["items": ["A1", "B2"], "note": "after"]
        let seen = try await changes(stream, until: after)
        #expect(seen.map(\.state) == [Self.cartBefore, after])
        #expect(await watcher.waitFor(after) == [Self.cartBefore, after])
    }

    @Test func aPageWritingOnItsOwnAbortsTheUnitAndItsWriteIsUndone() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let error = try await unitFailure(hub, timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            // The page's own code writes the held store (a user typing, say).
            try await pages.shop.execute("useCart().note = 'typed by the user'")
            #expect(tx.state(of: "cart")?["note"] == "typed by the user", "the write reached the mirror, held")
            #expect(hub.state(of: "cart") == Self.cartBefore)
            try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
            Issue.record("the step after a concurrent write was sent")
        }
        guard case .concurrentWrite(store: "cart", pageID: "shop", _) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(error.step == TransactionStep(index: 1, store: "cart", action: "remove", pageID: "shop"))
        #expect(error.unrestored.isEmpty)
        // Documented outcome: the unit's step and the page's own write are both undone.
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        #expect(hub.mirrorStatus(of: "cart") == .current)
    }

    /// A page timer writing the held store every millisecond, through the unit and its restore:
    /// the unit aborts, its step is undone, and mirror and page agree once the timer stops.
    @Test func aPageTimerWritingThroughoutAbortsAndConverges() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        try await pages.shop.execute("globalThis.ticks = 0; globalThis.ticker = setInterval(() => { useCart().note = 'tick ' + (++ticks); }, 1)")
        let error = try await unitFailure(hub, timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            for _ in 0..<2_000 where tx.state(of: "cart")?["note"] == hub.state(of: "cart")?["note"] {
                try await Task.sleep(for: .milliseconds(2))
            }
            try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
        }
        guard case .concurrentWrite(store: "cart", pageID: "shop", _) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        try await pages.shop.execute("clearInterval(ticker)")
        for _ in 0..<3 { try await pages.shop.execute("void 0") }
        let mirror = try #require(hub.state(of: "cart"))
        #expect(mirror["items"] == ["A1", "B2"], "the unit's step undone")
        #expect(try await engineState(pages.shop, "cart") == mirror)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        #expect(hub.mirrorStatus(of: "cart") == .current)
    }

    /// A page whose thread is held (a native call blocking it) cannot acknowledge its restore in
    /// time: it is reported, stays joining, and is restored once its thread is free again.
    @Test func aRestoreNotAcknowledgedInTimeIsReportedAndCompletesLater() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let entered = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        try await pages.account.bind("holdThread") { _ in
            entered.withLock { $0 = true }
            release.wait()
            return .null
        }
        struct ShopperChangedTheirMind: Error {}
        var caught: TransactionError?
        do {
            // Long enough for the steps and the wait below on a loaded machine (at 2 s, and once
            // at 8 s in session 24, the full suite's load ran the unit out or left the shop's
            // restore unanswered); the unacknowledged restore then waits the same time.
            try await hub.transaction(timeout: .seconds(30)) { tx in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
                Task { try await pages.account.execute("holdThread()") }
                for _ in 0..<2_000 where !entered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                throw ShopperChangedTheirMind()
            }
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.reason == .bodyThrew(String(describing: ShopperChangedTheirMind())))
        #expect(error.unrestored == [.init(store: "wishlist", pageID: "account", why: .notAcknowledged)])
        #expect(hub.mirrorStatus(of: "wishlist") == .resyncing)
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        #expect(hub.state(of: "wishlist") == Self.wishlistBefore, "the mirror holds the saved state meanwhile")
        release.signal()
        try await pages.account.execute("void 0")
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        #expect(hub.mirrorStatus(of: "wishlist") == .current)
    }

    @Test func aStoreDisposedWhileItsRestoreIsOnItsWayIsReportedGone() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let entered = Mutex(false)
        let release = DispatchSemaphore(value: 0)
        try await pages.shop.bind("holdThread") { _ in
            entered.withLock { $0 = true }
            release.wait()
            return .null
        }
        // Frees the shop once the restore's hydration is sent (queued behind the held turn): the turn
        // then disposes the cart, before the page reads the hydration.
        let releaser = Task {
            for _ in 0..<2_000 where !pages.trace.records.contains(where: { $0.engine == "shop" && $0.direction == .nativeToWeb && $0.type == "sync_state" }) {
                try? await Task.sleep(for: .milliseconds(5))
            }
            release.signal()
        }
        struct ShopperChangedTheirMind: Error {}
        let error = try await unitFailure(hub, timeout: .seconds(30)) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            Task { try await pages.shop.execute("holdThread(); useCart().$dispose()") }
            for _ in 0..<2_000 where !entered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            throw ShopperChangedTheirMind()
        }
        await releaser.value
        #expect(error.reason == .bodyThrew(String(describing: ShopperChangedTheirMind())))
        // Not `notAcknowledged` after the whole window: the store's going settles its restore.
        #expect(error.unrestored == [.init(store: "cart", pageID: "shop", why: .storeGone)], "shop's messages:\n\(pages.messages(of: "shop"))")
        #expect(hub.state(of: "cart") == nil)
    }

    @Test func aTimeoutNamesThePendingStepAndRestores() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        // The restore is given the unit's timeout too: 2 s, then 10 s, were not always enough for
        // both pages to acknowledge it while the whole suite starts at once on two cores (cart
        // reported notAcknowledged; in session 24 this test took 40 s to reach its unit).
        let error = try await unitFailure(hub, timeout: .seconds(30)) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            try await tx.dispatch(store: "wishlist", action: "hang")
        }
        #expect(error.reason == .timedOut(after: .seconds(30)))
        #expect(error.step == TransactionStep(index: 2, store: "wishlist", action: "hang", pageID: "account"))
        #expect(error.unrestored.isEmpty)
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        // `hang` wrote `started` before it stalled: undone too.
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
    }

    /// Cancelling the caller's task aborts the unit: the body's next step throws `cancelled`
    /// without being sent, and what the first step did is undone.
    @Test func aUnitCancelledByItsCallersTaskSendsNoMoreStepsAndRestores() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let stepped = Mutex(false)
        let secondStep = Mutex<TransactionError?>(nil)
        let unit = Task {
            try await hub.transaction(timeout: Self.unitTimeout) { tx in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                stepped.withLock { $0 = true }
                try? await Task.sleep(for: .seconds(60)) // ended early by the cancellation
                do throws(TransactionError) {
                    try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
                } catch {
                    secondStep.withLock { $0 = error }
                    throw error
                }
            }
        }
        for _ in 0..<2_000 where !stepped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        unit.cancel()
        let error = try await unitFailure(of: unit)
        let firstStep = TransactionStep(index: 1, store: "cart", action: "remove", pageID: "shop")
        #expect(error.reason == .cancelled)
        #expect(error.step == firstStep)
        #expect(error.unrestored.isEmpty)
        #expect(secondStep.withLock { $0 }?.reason == .cancelled, "the step after the cancellation is refused, not sent")
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
    }

    /// A step already running in its page when the caller's task is cancelled is still waited
    /// for before the restore, which then undoes what it wrote, late writes included.
    @Test func aCancellationWaitsForTheStepUnderWayThenRestores() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let ended = Mutex(false)
        let unit = Task {
            defer { ended.withLock { $0 = true } }
            // The unit's own deadline is far past the test's waits: in a loaded full run (a fresh
            // clone, 2 cores) a 60 s deadline fired before the poll below saw the step start.
            try await hub.transaction(timeout: .seconds(600)) { tx in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                try await tx.dispatch(store: "wishlist", action: "waitForGo")
            }
        }
        // Until `waitForGo` runs in the page (it wrote `started`).
        let deadline = ContinuousClock.now + .seconds(300)
        while try await engineState(pages.account, "wishlist")["started"] != true {
            guard ContinuousClock.now < deadline else {
                Issue.record("waitForGo did not start in 300 s")
                unit.cancel()
                try await pages.account.execute("globalThis.go && go()")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        unit.cancel()
        try await Task.sleep(for: .milliseconds(200))
        #expect(!ended.withLock { $0 }, "the unit waits for the step the page is running")
        try await pages.account.execute("go()")
        let error = try await unitFailure(of: unit)
        #expect(error.reason == .cancelled)
        #expect(error.step == TransactionStep(index: 2, store: "wishlist", action: "waitForGo", pageID: "account"))
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
    }

    @Test func aPageThatDiesMidUnitIsReportedAndTheOtherRestored() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let shopCart = hub.changes(of: "cart")
        let closed = Mutex("")
        let error = try await unitFailure(hub, timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            async let hung = tx.dispatch(store: "wishlist", action: "hang")
            // Wait until the step runs in the page (its first write reached the mirror).
            for _ in 0..<2_000 where tx.state(of: "wishlist")?["started"] != true {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(tx.state(of: "wishlist")?["started"] == true)
            await pages.account.close()
            closed.withLock { $0 = pages.now }
            _ = try await hung
        }
        let returned = pages.now
        // Read before the test sends the shop anything else: a thread asleep with the restore queued
        // (idle for the whole restore window) reads differently from one stuck in a turn (busy).
        let shopActivity = pages.shop.activity
        // When it fails (once in a fresh-clone CI run: the cart's restore `notAcknowledged`), say what
        // crossed to and from the shop, and when, against the account's close and the unit's end.
        let story = {
            "account closed at \(closed.withLock { $0 }), unit returned at \(returned), the shop then \(shopActivity); " +
                "shop's messages:\n\(pages.messages(of: "shop"))\nproblems: \(hub.problems)"
        }
        #expect(error.reason == .pageGone(store: "wishlist", pageID: "account"), "\(story())")
        #expect(error.step == TransactionStep(index: 2, store: "wishlist", action: "hang", pageID: "account"))
        #expect(error.unrestored == [.init(store: "wishlist", pageID: "account", why: .pageGone)], "\(story())")
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        #expect(hub.state(of: "wishlist") == nil)
        try await hub.dispatch(store: "cart", action: "mark", args: ["after"])
        let after: JSONValue = ["items": ["A1", "B2"], "note": "after"]
        let seen = try await changes(shopCart, until: after)
        #expect(seen.map(\.state) == [Self.cartBefore, after], "changes: \(seen.map { "v\($0.version) \($0.kind)" }); \(story())")
    }

    @Test func aSecondUnitOnAHeldStoreIsRefusedAndTheFirstCommits() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let inner = try await hub.transaction(timeout: Self.unitTimeout) { tx -> TransactionError? in
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
            do {
                try await hub.transaction(timeout: Self.unitTimeout) { other in
                    try await other.dispatch(store: "wishlist", action: "add", args: ["C3"])
                    try await other.dispatch(store: "cart", action: "remove", args: ["B2"])
                }
                return nil
            } catch let error as TransactionError {
                return error
            }
        }
        let refused = try #require(inner)
        #expect(refused.reason == .storeBusy(store: "cart"))
        #expect(refused.step == TransactionStep(index: 2, store: "cart", action: "remove", pageID: "shop"))
        // The refused unit restored what it touched itself; the first one committed.
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        try await expectStore(pages, pages.shop, "cart", equals: ["items": ["B2"], "note": ""])
    }

    @Test func aStepFailureTheBodyCatchesStillAbortsTheUnit() async throws {
        let pages = try await makePages()
        var caught: TransactionError?
        do {
            _ = try await pages.hub.transaction(timeout: Self.unitTimeout) { tx -> String in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                do { try await tx.dispatch(store: "wishlist", action: "add", args: ["BAD"]) } catch {}
                return "carried on"
            }
        } catch {
            caught = error
        }
        let error = try #require(caught)
        guard case .stepFailed(.actionThrew(store: "wishlist", action: "add", _)) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
    }

    @Test func aNativeWriteToAHeldStoreAbortsTheUnit() async throws {
        let pages = try await makePages()
        let error = try await unitFailure(pages.hub, timeout: Self.unitTimeout) { tx in
            try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
            try pages.hub.write(store: "wishlist", ops: [.set(path: [.key("started")], value: true)])
            try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
        }
        guard case .concurrentWrite(store: "wishlist", pageID: nil, _) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
    }

    /// A plain `hub.dispatch` whose action writes a held store interrupts the unit, and the
    /// error names that action, not only its messageId (which the caller never saw).
    @Test func aPlainDispatchWritingAHeldStoreIsNamedInTheInterruption() async throws {
        let pages = try await makePages()
        var caught: TransactionError?
        do {
            try await pages.hub.transaction(timeout: Self.unitTimeout) { tx in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                try await pages.hub.dispatch(store: "cart", action: "mark", args: ["outside"])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
            }
        } catch {
            caught = error
        }
        let error = try #require(caught)
        guard case .concurrentWrite(store: "cart", pageID: "shop", let detail) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(detail.contains("(cart.mark)"), "the interrupting dispatch's action is named: \(detail)")
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.account, "wishlist", equals: Self.wishlistBefore)
    }

    /// `tx.dispatch(…, as:)` whose result does not decode: the step ran, so the error names it
    /// (as every other step failure does) and the unit restores its write.
    @Test func aResultThatDoesNotDecodeNamesItsStepAndRestores() async throws {
        let pages = try await makePages()
        var caught: TransactionError?
        do {
            try await pages.hub.transaction(timeout: Self.unitTimeout) { tx in
                _ = try await tx.dispatch(store: "cart", action: "remove", args: ["A1"], as: String.self) // returns a number
            }
        } catch {
            caught = error
        }
        let error = try #require(caught)
        guard case .stepFailed(.resultDecoding(store: "cart", action: "remove", _)) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(error.step == TransactionStep(index: 1, store: "cart", action: "remove", pageID: "shop"))
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
    }

    /// A store the dispatched action changes through another store's action is restored when
    /// the unit includes it first.
    @Test func anIncludedStoreIsRestoredToo() async throws {
        let pages = try await makePages()
        try await pages.shop.execute("""
            globalThis.useTotals = defineStore('totals', { state: () => ({ removed: 0 }), actions: { bump() { this.removed += 1; } } });
            globalThis.useCheckout = defineStore('checkout', {
              state: () => ({}),
              actions: { moveOut(sku) { useCart().remove(sku); useTotals().bump(); } },
            });
            useTotals(); useCheckout();
            """)
        var caught: TransactionError?
        do {
            try await pages.hub.transaction(timeout: Self.unitTimeout) { tx in
                // `moveOut` changes `cart` and `totals` through their own actions.
                try tx.include(store: "cart")
                try tx.include(store: "totals")
                try await tx.dispatch(store: "checkout", action: "moveOut", args: ["A1"])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["BAD"])
            }
        } catch {
            caught = error
        }
        #expect(caught?.step == TransactionStep(index: 2, store: "wishlist", action: "add", pageID: "account"), "\(String(describing: caught))")
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        try await expectStore(pages, pages.shop, "totals", equals: ["removed": 0])
    }

    /// A store changed by another store's action is flushed by the page after the step's
    /// result: the commit still includes it (no later change observers would see apart).
    @Test func anIncludedStoreCommitsWithTheUnit() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        try await pages.shop.execute("""
            globalThis.useTotals = defineStore('totals', { state: () => ({ removed: 0 }), actions: { bump() { this.removed += 1; } } });
            globalThis.useCheckout = defineStore('checkout', {
              state: () => ({}),
              actions: { moveOut(sku) { useCart().remove(sku); useTotals().bump(); } },
            });
            useTotals(); useCheckout();
            """)
        let totals = hub.changes(of: "totals")
        for round in 1...20 {
            try await hub.transaction(timeout: Self.unitTimeout) { tx in
                try tx.include(store: "cart")
                try tx.include(store: "totals")
                try await tx.dispatch(store: "checkout", action: "moveOut", args: ["A1"])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["A1"])
            }
            try #require(hub.state(of: "totals") == ["removed": .number(Double(round))], "round \(round)")
            try #require(hub.state(of: "cart") == ["items": ["B2"], "note": ""], "round \(round)")
            try await pages.shop.execute("useCart().items.unshift('A1')")
        }
        let seen = try await changes(totals, until: ["removed": 20])
        #expect(seen.map(\.state) == (0...20).map { ["removed": .number(Double($0))] })
    }

    /// A touched store hosted by two pages is restored in both.
    @Test func aStoreHostedByTwoPagesIsRestoredInBoth() async throws {
        let pages = try await makePages()
        let hub = pages.hub
        let second = try await makePage(hub, name: "shop-2")
        try await second.execute(Self.cart)
        for _ in 0..<2_000 where hub.mirrorStatus(of: "cart") != .current {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(hub.hosts(of: "cart") == ["shop", "shop-2"])
        var caught: TransactionError?
        do {
            try await hub.transaction(timeout: Self.unitTimeout) { tx in
                try await tx.dispatch(store: "cart", action: "remove", args: ["A1"])
                try await tx.dispatch(store: "wishlist", action: "add", args: ["BAD"])
            }
        } catch {
            caught = error
        }
        #expect(caught?.step?.index == 2)
        #expect(caught?.unrestored == [])
        try await expectStore(pages, pages.shop, "cart", equals: Self.cartBefore)
        #expect(try await engineState(second, "cart") == Self.cartBefore)
        #expect(hub.mirrorStatus(of: "cart") == .current)
    }

    /// The changes of a stream up to and including the first whose state is `last` (10 s at most).
    func changes(_ stream: AsyncStream<StoreChange>, until last: JSONValue) async throws -> [StoreChange] {
        let collected = Task {
            var seen: [StoreChange] = []
            for await change in stream {
                seen.append(change)
                if change.state == last { break }
            }
            return seen
        }
        let guardTask = Task {
            try? await Task.sleep(for: .seconds(10))
            collected.cancel()
        }
        defer { guardTask.cancel() }
        return await collected.value
    }
}

/// Every state a main-actor observer of the hub was given, in order.
@MainActor
final class HistoryObserver: StoreObserver {
    private(set) var states: [JSONValue?] = []

    init(_ hub: GlobalStateHub, store: String) {
        hub.observers.add(self, for: store)
        states.append(hub.state(of: store))
    }

    func storeDidChange(state: JSONValue?, version: Int) {
        if states.last != state { states.append(state) }
    }

    /// The history once it reaches `last` (10 s at most; the main actor runs the updates).
    func waitFor(_ last: JSONValue) async -> [JSONValue?] {
        for _ in 0..<2_000 where states.last != last {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return states
    }
}

extension TransactionTests {
    /// Hub logic, with an in-memory page: writes in a shape only the generic parser reads (an
    /// extra member in the mutation) are told apart by their `dispatch` tag as the fast path's are.
    @Test func theGenericParserTellsTheUnitsWritesFromThePagesOwn() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "p")
        try await hub.attach(page)
        let before: JSONValue = ["n": 0, "note": ""]
        page.announce(store: "cart", state: before)
        let unit = Task { () -> TransactionError? in
            do {
                try await hub.transaction(timeout: Self.unitTimeout) { tx in
                    try await tx.dispatch(store: "cart", action: "bump")
                    try await tx.dispatch(store: "cart", action: "bump")
                }
                return nil
            } catch let error as TransactionError {
                return error
            }
        }
        let dispatch = await page.nextSent()
        let dispatchId = try #require(dispatch.messageId)
        page.postStoreMessage(store: "cart", type: "apply_mutation", payload: ["mutations": [
            ["type": "direct", "dispatch": .string(dispatchId), "extra": true, "ops": [["op": "set", "path": ["n"], "value": 1]]],
        ]])
        page.postStoreMessage(store: "cart", type: "apply_mutation", payload: ["mutations": [
            ["type": "direct", "extra": true, "ops": [["op": "set", "path": ["note"], "value": "typed"]]],
        ]])
        page.answer(dispatch)
        // No second step: the unit was interrupted, and the restore comes instead.
        let restore = await page.nextSent()
        #expect(restore.type == "sync_state")
        #expect(restore.payload?["state"] == before)
        let restoreId = try #require(restore.messageId)
        let hydrated: JSONValue = ["v": 1, "storeId": "cart", "messageId": "w-h", "seq": 5, "ack": .string(restoreId),
                                   "type": "sync_state", "payload": ["state": before, "reason": "hydrated"]]
        page.post(hydrated.jsonText(), on: GlobalStateHub.channel)
        let error = try #require(await unit.value)
        guard case .concurrentWrite(store: "cart", pageID: "p", let detail) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(detail.contains("no dispatch tag"), "the step's own tagged write was not taken for the page's: \(detail)")
        #expect(error.step == TransactionStep(index: 1, store: "cart", action: "bump", pageID: "p"))
        #expect(error.unrestored.isEmpty)
        #expect(hub.state(of: "cart") == before)
        #expect(hub.mirrorStatus(of: "cart") == .current)
        #expect(hub.problems.isEmpty, "\(hub.problems)")
    }

    /// Acknowledges the restore hydration `page` is sent next, as the plugin does (a `seq` far
    /// ahead: a whole state sets the page's next expected one).
    static func acknowledgeRestore(_ page: InMemoryPage) async {
        let restore = await page.nextSent()
        guard restore.type == "sync_state", let id = restore.messageId, let store = restore.storeId else {
            Issue.record("not a restore: \(restore)")
            return
        }
        let hydrated: JSONValue = ["v": 1, "storeId": .string(store), "messageId": .string("w-h-\(id)"), "seq": 1000, "ack": .string(id),
                                   "type": "sync_state", "payload": ["state": restore.payload?["state"] ?? [:], "reason": "hydrated"]]
        page.post(hydrated.jsonText(), on: GlobalStateHub.channel)
    }

    /// Hostile review: a page alone with a held store posted a `sync_state` `hydrated` that
    /// acknowledged no hydration the hub sent; the mirror took its state unnoticed and the unit
    /// committed it as its own.
    @Test func aHydratedStateAcknowledgingNoHydrationAbortsTheUnit() async throws {
        let hub = GlobalStateHub()
        let page = InMemoryPage(pageID: "p")
        try await hub.attach(page)
        let before: JSONValue = ["n": 0]
        page.announce(store: "cart", state: before)
        let unit = Task { () -> TransactionError? in
            do {
                _ = try await hub.transaction(timeout: Self.unitTimeout) { tx in try await tx.dispatch(store: "cart", action: "bump") }
                return nil
            } catch let error as TransactionError {
                return error
            }
        }
        let step = await page.nextSent()
        let forged: JSONValue = ["v": 1, "storeId": "cart", "messageId": "w-forged", "seq": 1, "ack": "n-999",
                                 "type": "sync_state", "payload": ["state": ["n": 99], "reason": "hydrated"]]
        page.post(forged.jsonText(), on: GlobalStateHub.channel)
        page.answer(step)
        let barrier = await page.nextSent()
        #expect(barrier.payload?["action"] == .string(GlobalStateHub.barrierAction), "\(page.sent)")
        page.answer(barrier)
        let restorer = Task { await Self.acknowledgeRestore(page) }
        let error = try #require(await unit.value, "the unit committed the forged state: \(String(describing: hub.state(of: "cart")))")
        guard case .concurrentWrite(store: "cart", pageID: "p", _) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        await restorer.value
        #expect(hub.state(of: "cart") == before)
    }

    /// Hostile review: messageIds are sequential, so a page can tag its own write to a held store
    /// with the messageId of a step sent to another page; that write was taken for the unit's.
    @Test func aWriteTaggedWithAStepSentToAnotherPageAbortsTheUnit() async throws {
        let hub = GlobalStateHub()
        let shop = InMemoryPage(pageID: "shop")
        let account = InMemoryPage(pageID: "account")
        try await hub.attach(shop)
        try await hub.attach(account)
        shop.announce(store: "cart", state: ["n": 0])
        account.announce(store: "wishlist", state: ["m": 0])
        let unit = Task { () -> TransactionError? in
            do {
                try await hub.transaction(timeout: Self.unitTimeout) { tx in
                    try tx.include(store: "cart")
                    try await tx.dispatch(store: "wishlist", action: "bump")
                }
                return nil
            } catch let error as TransactionError {
                return error
            }
        }
        let step = await account.nextSent()
        let stepId = try #require(step.messageId)
        shop.postStoreMessage(store: "cart", type: "apply_mutation", payload: ["mutations": [
            ["type": "direct", "dispatch": .string(stepId), "ops": [["op": "set", "path": ["n"], "value": 1]]],
        ]])
        account.answer(step)
        let barrier = await account.nextSent()
        #expect(barrier.payload?["action"] == .string(GlobalStateHub.barrierAction))
        account.answer(barrier)
        let restorer = Task {
            await Self.acknowledgeRestore(shop)
            await Self.acknowledgeRestore(account)
        }
        let error = try #require(await unit.value, "the unit committed the shop's write: \(String(describing: hub.state(of: "cart")))")
        guard case .concurrentWrite(store: "cart", pageID: "shop", let detail) = error.reason else {
            Issue.record("reason: \(error)")
            return
        }
        #expect(detail.contains(stepId))
        await restorer.value
        #expect(hub.state(of: "cart") == ["n": 0])
        #expect(hub.state(of: "wishlist") == ["m": 0])
    }
}
