import Clocks
import Foundation
import SharedDocumentSync
import StateHub
import StateHubTestSupport
import Testing

/// The native client's presence (docs/sync.md §3.5) beside a real y-websocket client under node
/// (Peers/presence-peer.cjs), through our server over real WebSockets.
@Suite(.tags(.integration), .serialized) struct PresenceInteropTests {
    /// Both see each other; after the native client's connection ends and a new one starts, the
    /// web client sees it again. Renewal is off on both sides (the web peer's check stopped, the
    /// native client's clock a `TestClock` that never moves), so only the server's answer to a
    /// returning client, and the native client's reply to it, can bring it back.
    @Test func aNativeAndAYjsClientSeeEachOtherAcrossReconnects() async throws {
        let folder = temporaryDataFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let live = try await LiveSyncServer.start(.sqlite(directory: folder.appendingPathComponent("server")))
        let server = "ws://127.0.0.1:\(live.port)/sync"
        let web = try YjsPeer(name: "web", server: server, document: "room", token: LiveSyncServer.adminToken,
                              script: YjsPeer.peers.appendingPathComponent("presence-peer.cjs"))
        @Sendable func names(_ line: [String: AnyHashableSendable]) -> [String] {
            ((line["names"]?.value as? [Any]) ?? []).compactMap { $0 as? String }
        }
        try web.send(["op": "noRenewal"])
        try web.send(["op": "present", "name": "web"])

        let store = try DocumentStore(path: folder.appendingPathComponent("app.sqlite").path)
        let configuration = SyncConfiguration(server: server, token: LiveSyncServer.adminToken, clock: TestClock())
        let native = try await SyncedDocument.open("room", store: store, configuration: configuration)
        let changes = await native.presenceChanges()
        @Sendable func nativeSeesWeb() async -> Bool {
            await native.remotePresence.values.contains { $0["name"] == "web" }
        }
        try await native.setPresence(["name": "native"])
        #expect(await web.next("others", where: { names($0).contains("native") }) != nil, "web never saw native: \(web.stderr)")
        #expect(await waitUntil("native to see web", notifiedBy: changes, observed: { "\(await native.remotePresence)" }, nativeSeesWeb))

        for round in 1...3 {
            await native.pause()
            #expect(await web.next("others", where: { !names($0).contains("native") }) != nil, "round \(round): native's leaving never reached web")
            #expect(await native.remotePresence.isEmpty, "round \(round): offline, native still holds others")
            await native.resume()
            #expect(await web.next("others", where: { names($0).contains("native") }) != nil,
                    "round \(round): native never became visible to web again")
            #expect(await waitUntil("round \(round): native to see web again", notifiedBy: changes,
                                    observed: { "\(await native.remotePresence)" }, nativeSeesWeb))
        }

        // The web client leaving reaches the native one; native's close reaches the web one.
        try web.send(["op": "disconnect"])
        #expect(await waitUntil("native to see web leave", notifiedBy: changes, observed: { "\(await native.remotePresence)" }) {
            await !nativeSeesWeb()
        })
        try web.send(["op": "connect"])
        #expect(await waitUntil("native to see web back", notifiedBy: changes, observed: { "\(await native.remotePresence)" }, nativeSeesWeb))
        await native.close()
        #expect(await web.next("others", where: { !names($0).contains("native") }) != nil, "native's close never reached web")
        web.stop()
        await live.stop()
    }
}
