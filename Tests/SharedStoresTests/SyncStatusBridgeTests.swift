import CapabilityBridge
import Foundation
import JSEngine
import SharedDocumentSync
import SharedStores
import StateHubPage
import StateHubTestSupport
import Testing

/// A page asks for a synced document's status and hears it change (docs/sync.md §3.4), in a
/// real engine through the real bridge; the document is offline (nothing listens on its port).
@Suite(.tags(.engine)) struct SyncStatusBridgeTests {
    @Test func aPageReadsTheStatusAndHearsEachChange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try DocumentStore(path: folder.appendingPathComponent("app.sqlite").path)
        // Port 9 (discard) refuses connections on loopback: the document stays offline.
        let board = try await SyncedDocument.open("board", store: store, configuration: SyncConfiguration(server: "ws://127.0.0.1:9/sync"))
        // `getSyncStatus` is not one of the core framework actions: a micro-app is granted it.
        // The page says what it heard on its console, which the test awaits.
        let (console, onConsole) = AsyncStream.makeStream(of: ConsoleMessage.self)
        let page = try await HostedPage.make(.init(app: MicroApp(id: "board-app", grants: .framework(plus: ["getSyncStatus"])),
                                                   onConsole: { onConsole.yield($0) }))
        let statuses = SyncStatusBridge(bridge: page.bridge)
        await statuses.add(board)

        try await page.engine.execute("""
            globalThis.heard = [];
            onNative('syncStatusChanged', (data) => { heard.push(data); console.log('heard pendingUpdates ' + data.pendingUpdates); });
            """, sourceURL: "listen.js")
        let before = try await page.engine.evaluateAndAwait("invokeNative('getSyncStatus', { document: 'board' })")
        #expect(before["document"] == "board")
        #expect(before["pendingUpdates"] == 0)

        try await board.transact { try $0.map("m").set("k", .string("v")) }
        await waitFor("the page to hear pendingUpdates 1", in: console) { $0.text == "heard pendingUpdates 1" }
        let heard = try await page.engine.evaluate("heard.filter(d => d.pendingUpdates === 1)")
        guard case .array(let items) = heard, let last = items.last else {
            Issue.record("the page never heard pendingUpdates 1: \(try await page.engine.evaluate("heard"))")
            return
        }
        #expect(last["document"] == "board")
        let after = try await page.engine.evaluateAndAwait("invokeNative('getSyncStatus', { document: 'board' })")
        #expect(after["pendingUpdates"] == 1)

        let unknown = try await page.engine.evaluateAndAwait("""
            invokeNative('getSyncStatus', { document: 'nope' }).then(() => 'resolved', (error) => error.code + ': ' + error.message)
            """)
        #expect(unknown == #"bad_payload: getSyncStatus: payload.document: no synced document named "nope" (known: board)"#)
        await board.close()
        await page.close()
    }

    @Test func aMicroAppNotGrantedTheActionIsRefused() async throws {
        let page = try await HostedPage.make()
        _ = SyncStatusBridge(bridge: page.bridge)
        let answer = try await page.engine.evaluateAndAwait(
            "invokeNative('getSyncStatus', { document: 'board' }).then(() => 'resolved', (error) => error.code)")
        #expect(answer == "refused")
        await page.close()
    }
}
