import Foundation
import JSEngine
import Logging
import StateHub
import StateHubPage
import Synchronization
import Testing

/// docs/pool.md, "Snapshots": a saved mirror hydrates its store before the page's code sees
/// it; a snapshot that fails a check is logged, dropped and never applied. Real engine.
@Suite(.tags(.engine)) struct SnapshotStartTests {
    /// A store whose code records the first state it sees, right after `useStore()`.
    static let cart = HostedPage.Bundle(path: "cart.js", source: """
        const useCart = defineStore('cart', {
          state: () => ({ items: [], coupon: null, count: 0, opened: new Date(0), tags: new Map() }),
          actions: {
            add(sku) { this.items.push({ sku, qty: 1 }); this.count++; this.tags.set(sku, true); this.opened = new Date(86400000) },
          },
        });
        const first = useCart();
        globalThis.firstSeen = { count: first.count, items: first.items.length, day: first.opened.getTime(), tags: first.tags.size, coupon: first.coupon };
        """)

    static let initialSeen: JSONValue = ["count": 0, "items": 0, "day": 0, "tags": 0, "coupon": nil]

    /// A fresh folder and the drops it reported.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-snapshots-\(UUID().uuidString)")
        let drops = Mutex<[StoreSnapshotDrop]>([])
        let warnings = Mutex<[String]>([])

        var snapshots: StoreSnapshotFolder {
            StoreSnapshotFolder(
                url: url,
                logger: Logger(label: "statehub.snapshots", factory: { _ in CollectingLogHandler(into: self) }),
                onDrop: { drop in self.drops.withLock { $0.append(drop) } })
        }

        func write(_ text: String, store: String = "cart") throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: snapshots.fileURL(of: store))
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    struct CollectingLogHandler: LogHandler {
        let folder: Folder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        init(into folder: Folder) { self.folder = folder }
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            if event.level == .warning { folder.warnings.withLock { $0.append(event.message.description) } }
        }
    }

    /// Runs the cart in a page hydrating from `folder`; returns what its code saw first and the mirror.
    static func start(with folder: StoreSnapshotFolder) async throws -> (seen: JSONValue, mirror: JSONValue?, version: Int?) {
        let page = try await HostedPage.make(.init(bundles: [cart], snapshots: folder))
        let seen = try await page.engine.evaluate("firstSeen")
        let result = (seen, page.hub.state(of: "cart"), page.hub.version(of: "cart"))
        await page.close()
        return result
    }

    @Test func theFirstStateTheStoreHasIsTheSavedOne() async throws {
        let folder = Folder()
        let first = try await HostedPage.make(.init(bundles: [Self.cart], snapshots: folder.snapshots))
        _ = try await first.hub.dispatch(store: "cart", action: "add", args: ["A1"])
        _ = try await first.hub.dispatch(store: "cart", action: "add", args: ["B2"])
        let saved = try #require(first.hub.state(of: "cart"))
        try first.saveSnapshots()
        await first.close()

        let (seen, mirror, version) = try await Self.start(with: folder.snapshots)
        // The page's own code, right after useStore(), saw the saved state, Date and Map decoded.
        #expect(seen == ["count": 2, "items": 2, "day": 86_400_000, "tags": 2, "coupon": nil])
        // The mirror's first version is the snapshot: no initial state went before it.
        #expect(mirror == saved)
        #expect(version == 1)
        #expect(folder.drops.withLock { $0 }.isEmpty)
    }

    @Test func anObserverSubscribedBeforeTheStoreExistsFirstSeesTheSavedState() async throws {
        let folder = Folder()
        let saved = try JSONValue(parsing: Self.goodState)
        try folder.snapshots.save(storeId: "cart", state: saved)
        let page = try await HostedPage.makeEmpty(.init(snapshots: folder.snapshots))
        var changes = page.hub.changes(of: "cart").makeAsyncIterator()
        try await page.load(Self.cart)
        let first = try #require(await changes.next())
        #expect(first.version == 1)
        #expect(first.kind == .snapshot(reason: "created"))
        #expect(first.state == saved)
        await page.close()
    }

    @Test func aSaveIsOneFileWrittenByRenameWithTheDocumentedFormat() throws {
        let folder = Folder()
        let snapshots = folder.snapshots
        try snapshots.save(storeId: "cart/v2", state: ["count": 1])
        try snapshots.save(storeId: "cart/v2", state: ["count": 2])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(names == ["cart%2Fv2.json"]) // no temporary file left behind
        let document = try JSONValue(parsing: String(decoding: try Data(contentsOf: snapshots.fileURL(of: "cart/v2")), as: UTF8.self))
        #expect(document["format"] == "statehub.snapshot")
        #expect(document["version"] == 1)
        #expect(document["storeId"] == "cart/v2")
        #expect(document["state"] == ["count": 2])
        #expect(snapshots.fileURL(of: "..").lastPathComponent == "%2E%2E.json")
    }

    /// A save that cannot write is a typed error naming the store, the file and why (not
    /// Foundation's bare error), and `save(from:)` goes on past a store that fails.
    @Test func aFailedSaveNamesTheStoreAndTheOthersAreStillSaved() async throws {
        let folder = Folder()
        // A file where the folder should be: nothing can be created in it.
        try Data("not a folder".utf8).write(to: folder.url)
        #expect {
            try folder.snapshots.save(storeId: "cart", state: ["count": 1])
        } throws: { error in
            let failure = (error as? StoreSnapshotSaveError)?.failures.first
            return failure?.storeId == "cart" && failure?.path.hasSuffix("cart.json") == true
                && String(describing: error).contains("could not be created")
        }
        try FileManager.default.removeItem(at: folder.url)

        // Two stores; the first one's file name is taken by a folder, so only it fails.
        let page = try await HostedPage.make(.init(bundles: [Self.cart, .init(path: "user.js", source: "defineStore('user', { state: () => ({ name: 'ada' }) })();")]))
        try FileManager.default.createDirectory(at: folder.snapshots.fileURL(of: "cart").appendingPathComponent("blocker"), withIntermediateDirectories: true)
        #expect {
            try folder.snapshots.save(from: page.hub)
        } throws: { error in
            (error as? StoreSnapshotSaveError)?.failures.map(\.storeId) == ["cart"]
        }
        #expect(folder.snapshots.contains("user"), "the store after the failing one was saved")
        await page.close()
    }

    /// Writes `text` as the cart's snapshot, starts the page, and checks it was dropped for
    /// `reason`, with a warning, the file deleted, and the store at its initial state.
    func expectDropped(_ text: String, maximumBytes: Int = 8 << 20, reason matches: (StoreSnapshotDrop.Reason) -> Bool) async throws {
        let folder = Folder()
        try folder.write(text)
        var snapshots = folder.snapshots
        snapshots.maximumBytes = maximumBytes
        let (seen, mirror, _) = try await Self.start(with: snapshots)
        #expect(seen == Self.initialSeen)
        #expect(mirror?["count"] == 0)
        #expect(mirror?["items"] == [])
        let drops = folder.drops.withLock { $0 }
        #expect(drops.count == 1)
        #expect(drops.first.map { matches($0.reason) } == true, "\(drops)")
        #expect(folder.warnings.withLock { $0 }.count == 1)
        #expect(folder.warnings.withLock { $0 }.first?.contains("snapshot of store cart dropped") == true)
        #expect(!FileManager.default.fileExists(atPath: snapshots.fileURL(of: "cart").path))
    }

    /// Makes the cart's file with `make` (given its path), starts the page, and checks the file
    /// was dropped as unreadable, never read: the store at its initial state, the file gone.
    func expectDroppedUnread(_ make: (String) throws -> Void) async throws {
        let folder = Folder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let snapshots = folder.snapshots
        try make(snapshots.fileURL(of: "cart").path)
        let (seen, mirror, _) = try await Self.start(with: snapshots)
        #expect(seen == Self.initialSeen)
        #expect(mirror?["count"] == 0)
        let drops = folder.drops.withLock { $0 }
        #expect(drops.count == 1)
        #expect(drops.first.map { if case .unreadable = $0.reason { true } else { false } } == true, "\(drops)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: snapshots.fileURL(of: "cart").path)) == nil)
        #expect(!FileManager.default.fileExists(atPath: snapshots.fileURL(of: "cart").path))
    }

    /// A FIFO in place of the file must not make the store's creation wait for a writer (the
    /// time limit fails this test then).
    @Test(.timeLimit(.minutes(1))) func aFIFOInPlaceOfTheFileIsDroppedUnread() async throws {
        try await expectDroppedUnread { path in #expect(mkfifo(path, 0o600) == 0) }
    }

    /// A link is not followed: a file outside the folder is never applied, and a link's target
    /// is never read whole before the size is checked.
    @Test func aSymbolicLinkInPlaceOfTheFileIsDroppedUnread() async throws {
        try await expectDroppedUnread { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero") }
        // Even to a good snapshot: the folder's files are the ones `save` renamed into it.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-good-\(UUID().uuidString).json")
        try Data(Self.header(Self.goodState).utf8).write(to: elsewhere)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        try await expectDroppedUnread { path in try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere.path) }
        #expect(FileManager.default.fileExists(atPath: elsewhere.path), "the link's target is not deleted")
    }

    /// On a case-insensitive disk (macOS, iOS) `Cart.json` and `cart.json` are one file, and
    /// loading store `cart` would drop (and delete) store `Cart`'s snapshot: ids that differ only
    /// in case get file names that differ without case.
    @Test func idsThatDifferOnlyInCaseGetFileNamesThatDifferWithoutCase() throws {
        let snapshots = Folder().snapshots
        let ids = ["cart", "Cart", "CART", "cArt", "%43art", "%2543art", "c%41rt"]
        let names = ids.map { snapshots.fileURL(of: $0).lastPathComponent.lowercased() }
        #expect(Set(names).count == ids.count, "\(names)")
        #expect(snapshots.fileURL(of: "Cart").lastPathComponent == "%43art.json")
    }

    /// An escaped id past the file system's 255-byte name limit cannot be a file name ("File
    /// name too long"): long names are cut and hashed, and still round-trip.
    @Test func aLongIdIsSavedUnderAHashedNameAndLoadsBack() async throws {
        let folder = Folder()
        let snapshots = folder.snapshots
        let long = String(repeating: "Ü", count: 2_000) // 12,000 escaped bytes
        let similar = long + "x" // same 120-byte head: the hash tells them apart
        try snapshots.save(storeId: long, state: ["count": 1])
        try snapshots.save(storeId: similar, state: ["count": 2])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names.count == 2)
        let hashedLength = StoreSnapshotFolder.maximumEscapedNameBytes + "~".count + 64 + ".json".count
        for name in names {
            #expect(name.utf8.count == hashedLength, "\(name)")
            #expect(name.contains("~"))
        }
        #expect(snapshots.hydrationState(of: long, fitting: nil) == ["count": 1])
        #expect(snapshots.hydrationState(of: similar, fitting: nil) == ["count": 2])
        // At the limit the name is used whole; one byte more and it is hashed.
        let atLimit = String(repeating: "a", count: StoreSnapshotFolder.maximumEscapedNameBytes)
        #expect(snapshots.fileURL(of: atLimit).lastPathComponent == atLimit + ".json")
        #expect(snapshots.fileURL(of: atLimit + "a").lastPathComponent.contains("~"))
    }

    static func header(_ state: String, store: String = "cart", version: Int = 1) -> String {
        #"{"format":"statehub.snapshot","version":\#(version),"storeId":"\#(store)","savedAt":"2026-11-24T13:00:00Z","state":\#(state)}"#
    }

    static let goodState = #"{"items":[{"sku":"A1","qty":1}],"coupon":null,"count":1,"opened":{"$type":"Date","value":"1970-01-02T00:00:00.000Z"},"tags":{"$type":"Map","entries":[["A1",true]]}}"#

    @Test func aCorruptFileIsDropped() async throws {
        try await expectDropped("\u{0}\u{1}not json at all {{{") { if case .notJSON = $0 { true } else { false } }
    }

    @Test func aTruncatedFileIsDropped() async throws {
        let whole = Self.header(Self.goodState)
        try await expectDropped(String(whole.prefix(whole.count / 2))) { if case .notJSON = $0 { true } else { false } }
    }

    @Test func aHostileDeepFileIsDroppedByTheParserWithoutRecursion() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        try await expectDropped(Self.header(#"{"items":\#(deep),"coupon":null,"count":0,"opened":null,"tags":null}"#)) {
            $0 == .tooDeep(limit: JSONValue.maximumStateDepth)
        }
    }

    @Test func aStateJustPastTheDepthCapIsDroppedAsTheHubWouldRefuseIt() async throws {
        // 513 state levels: within the parser's allowance (519), past the state cap (512).
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        try await expectDropped(Self.header(#"{"items":\#(deep),"coupon":null,"count":0,"opened":null,"tags":null}"#)) {
            $0 == .tooDeep(limit: JSONValue.maximumStateDepth)
        }
    }

    @Test func aSnapshotOfAnOlderStoreShapeIsDropped() async throws {
        // The store has since gained `tags` (and `opened`): the old snapshot lacks them.
        try await expectDropped(Self.header(#"{"items":[],"coupon":null,"count":3}"#)) {
            if case .doesNotFit(let why) = $0 { why.contains("\"opened\"") && why.contains("\"tags\"") } else { false }
        }
    }

    @Test func aSnapshotWhoseValueChangedKindIsDropped() async throws {
        let state = Self.goodState.replacingOccurrences(of: #""count":1"#, with: #""count":"one""#)
        try await expectDropped(Self.header(state)) {
            $0 == .doesNotFit("\"count\" is string in the snapshot, number in the store")
        }
    }

    @Test func aSnapshotOfAnotherStoreOrVersionIsDropped() async throws {
        try await expectDropped(Self.header(Self.goodState, store: "wishlist")) { if case .wrongHeader = $0 { true } else { false } }
        try await expectDropped(Self.header(Self.goodState, version: 2)) { if case .wrongHeader = $0 { true } else { false } }
        try await expectDropped(Self.header("[1,2]")) { $0 == .stateNotObject }
    }

    @Test func aFileOverTheSizeCapIsDroppedUnread() async throws {
        try await expectDropped(Self.header(Self.goodState), maximumBytes: 64) { if case .tooLarge(_, 64) = $0 { true } else { false } }
    }

    @Test func aNullInTheInitialStateTakesAnyKindAndAGoodFileIsApplied() async throws {
        let folder = Folder()
        try folder.write(Self.header(Self.goodState.replacingOccurrences(of: #""coupon":null"#, with: #""coupon":{"code":"SPRING"}"#)))
        let (seen, mirror, _) = try await Self.start(with: folder.snapshots)
        #expect(seen == ["count": 1, "items": 1, "day": 86_400_000, "tags": 1, "coupon": ["code": "SPRING"]])
        #expect(mirror?["coupon"] == ["code": "SPRING"])
        #expect(folder.drops.withLock { $0 }.isEmpty)
    }
}
