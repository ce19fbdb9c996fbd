import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StateHubTestSupport
import Testing

/// `statehub release keygen | sign | publish` against a real `statehub serve`, and a device
/// (`statehub run --server --release-key`, through Delivery) that ships the public key.
@Suite("statehub release", .tags(.integration))
struct ReleaseCommandTests {
    typealias ServeProcess = ServeCommandTests.ServeProcess

    /// A build folder: a bundle that defines a store holding its version, a stylesheet and an asset.
    static func buildFolder(in folder: URL, version: String) throws -> URL {
        let dist = folder.appendingPathComponent("dist-\(version)")
        try FileManager.default.createDirectory(at: dist.appendingPathComponent("img"), withIntermediateDirectories: true)
        try ServeCommandTests.bundle(version).write(to: dist.appendingPathComponent("bundle.js"), atomically: true, encoding: .utf8)
        try "body { color: red; }\n".write(to: dist.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 3]).write(to: dist.appendingPathComponent("img/logo.png"))
        return dist
    }

    /// Runs `keygen` into `file` and returns the public key and key id it printed.
    static func keygen(_ file: URL) async throws -> (publicKey: String, keyID: String) {
        let result = try await StateHubBinary.run(["release", "keygen", "--out", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let publicKey = try #require(lines.first { $0.hasPrefix("public key: ") }?.dropFirst("public key: ".count))
        let keyID = try #require(lines.first { $0.hasPrefix("key id: ") }?.dropFirst("key id: ".count))
        return (String(publicKey), String(keyID))
    }

    /// A running `statehub serve`, a key file `keygen` wrote in its folder (with the key's id)
    /// and a build folder of `version`, for `body`.
    static func withServedBuild(version: String,
                                _ body: (ServeProcess, _ keyFile: URL, _ keyID: String, _ dist: URL) async throws -> Void) async throws {
        let server = try ServeProcess()
        defer {
            _ = server.stop()
            try? FileManager.default.removeItem(at: server.folder)
        }
        let keyFile = server.folder.appendingPathComponent("release.key")
        let (_, keyID) = try await Self.keygen(keyFile)
        try await body(server, keyFile, keyID, try Self.buildFolder(in: server.folder, version: version))
    }

    @Test func keygenPublishAndADeviceThatShipsTheKeyRunsIt() async throws {
        let server = try ServeProcess()
        defer {
            _ = server.stop()
            try? FileManager.default.removeItem(at: server.folder)
        }
        let keyFile = server.folder.appendingPathComponent("release.key")
        let (publicKey, keyID) = try await Self.keygen(keyFile)
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let keyText = try String(contentsOf: keyFile, encoding: .utf8)
        #expect(keyText.hasPrefix("statehub-ed25519-secret:") && publicKey.hasPrefix("statehub-ed25519-public:"))
        let again = try await StateHubBinary.run(["release", "keygen", "--out", keyFile.path])
        #expect(again.status == 2 && again.stderr.contains("cannot create \(keyFile.path)"), "\(again.stderr)")
        #expect(try String(contentsOf: keyFile, encoding: .utf8) == keyText, "an existing key file is never overwritten")

        let dist = try Self.buildFolder(in: server.folder, version: "1.0.0")
        let publish = ["release", "publish", dist.path, "--app", "cart", "--version", "1.0.0", "--min-native-version", "1.0.0",
                       "--key", keyFile.path, "--server", server.base.absoluteString,
                       "--admin-token-file", server.folder.appendingPathComponent("token").path]
        let published = try await StateHubBinary.run(publish)
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout == "uploaded cart 1.0.0 signed by key \(keyID)\n")
        let republished = try await StateHubBinary.run(publish)
        #expect(republished.stdout == "already uploaded: cart 1.0.0 signed by key \(keyID), the same bytes and signature\n")
        #expect(try await server.request("PUT", "/admin/apps/cart/release", body: #"{"stable":"1.0.0"}"#, admin: true).status == 200)
        let manifest = try await server.request("GET", "/apps/cart/manifest?user=alice")
        #expect(manifest.body.contains(#""signature":{"keyId":"\#(keyID)","#), "\(manifest.body)")
        #expect(manifest.body.contains(#""path":"img/logo.png""#))

        let device = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", "alice",
                                                   "--app-cache", server.folder.appendingPathComponent("device").path,
                                                   "--release-key", publicKey])
        #expect(device.status == 0, "\(device.stderr)")
        #expect(device.stderr.contains("cart 1.0.0 from \(server.base.absoluteString): fresh 1.0.0"), "\(device.stderr)")
        #expect(device.stdout.contains("\"version\": \"1.0.0\""), "\(device.stdout)")

        // A device that ships another publisher's key runs nothing from this server.
        let (otherKey, _) = try await Self.keygen(server.folder.appendingPathComponent("other.key"))
        let refused = try await StateHubBinary.run(["run", "--server", server.base.absoluteString, "--app", "cart", "--user", "alice",
                                                    "--app-cache", server.folder.appendingPathComponent("device-2").path,
                                                    "--release-key", otherKey])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("version 1.0.0 is signed with key \(keyID), which this app does not ship"), "\(refused.stderr)")
    }

    @Test func signWritesTheBodyAPipelineUploadsItself() async throws {
        try await Self.withServedBuild(version: "2.0.0") { server, keyFile, keyID, dist in
            let bodyFile = server.folder.appendingPathComponent("upload.json")
            let signed = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "2.0.0",
                                                       "--key", keyFile.path, "-o", bodyFile.path])
            #expect(signed.status == 0, "\(signed.stderr)")
            let body = try String(contentsOf: bodyFile, encoding: .utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect((object["signature"] as? [String: String])?["keyId"] == keyID)
            #expect((object["assets"] as? [[String: String]])?.map { $0["path"] } == ["img/logo.png"])
            #expect(object["minNativeVersion"] as? String == "0.0.0")
            #expect(try await server.request("PUT", "/admin/apps/cart/versions/2.0.0", body: body, admin: true).status == 201)

            // A folder the server would refuse is refused before anything is signed.
            let outside = server.folder.appendingPathComponent("outside.js")
            try ServeCommandTests.bundle("2.0.1").write(to: outside, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(at: dist.appendingPathComponent("img/outside.js"), withDestinationURL: outside)
            let linked = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "2.0.1", "--key", keyFile.path])
            #expect(linked.status == 2 && linked.stderr.contains("img/outside.js is a symbolic link"), "\(linked.stderr)")
            #expect(linked.stdout.isEmpty)
            try FileManager.default.removeItem(at: dist.appendingPathComponent("img/outside.js"))
            // No token, no upload: it is never read from an argument.
            let untokened = try await StateHubBinary.run(["release", "publish", dist.path, "--app", "cart", "--version", "2.0.1",
                                                          "--key", keyFile.path, "--server", server.base.absoluteString])
            #expect(untokened.status == 2 && untokened.stderr.contains("STATEHUB_ADMIN_TOKEN"), "\(untokened.stderr)")
        }
    }

    @Test func hiddenFilesAreLeftOutOfTheRelease() async throws {
        try await Self.withServedBuild(version: "3.0.0") { server, keyFile, _, dist in
            // What a Mac, an editor and git leave in a build folder: none of it is part of the build.
            try FileManager.default.createDirectory(at: dist.appendingPathComponent(".git/objects"), withIntermediateDirectories: true)
            for file in [".DS_Store", ".git/HEAD", ".git/objects/ab", "img/.DS_Store", "img/.logo.png.swp"] {
                try Data("hidden".utf8).write(to: dist.appendingPathComponent(file))
            }
            let signed = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "3.0.0", "--key", keyFile.path])
            #expect(signed.status == 0, "\(signed.stderr)")
            #expect(signed.stderr.contains(#"left out 4 hidden entries (a name starting with "."): .DS_Store, .git/, img/.DS_Store, img/.logo.png.swp"#),
                    "\(signed.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(signed.stdout.utf8)) as? [String: Any])
            #expect((object["assets"] as? [[String: String]])?.map { $0["path"] } == ["img/logo.png"])
            #expect(try await server.request("PUT", "/admin/apps/cart/versions/3.0.0", body: signed.stdout, admin: true).status == 201)

            // Past five, the line names the first five and counts the rest.
            for index in 0 ..< 4 { try Data().write(to: dist.appendingPathComponent("img/.tmp\(index)")) }
            let many = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "3.0.1", "--key", keyFile.path])
            #expect(many.status == 0, "\(many.stderr)")
            #expect(many.stderr.contains("left out 8 hidden entries (a name starting with \".\"): .DS_Store, .git/, img/.DS_Store, img/.logo.png.swp, "
                                         + "img/.tmp0 and 3 more"), "\(many.stderr)")
        }
    }

    @Test func eachKeyIsRefusedWhereTheOtherKindBelongs() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statehub-release-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("release.key")
        let (publicKey, _) = try await Self.keygen(keyFile)
        let secretText = try String(contentsOf: keyFile, encoding: .utf8)
        let dist = try Self.buildFolder(in: folder, version: "1.0.0")

        // The public key given to `release sign` as its key file.
        let publicFile = folder.appendingPathComponent("release.pub")
        try (publicKey + "\n").write(to: publicFile, atomically: true, encoding: .utf8)
        let signedWithPublic = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "1.0.0", "--key", publicFile.path])
        #expect(signedWithPublic.status == 2, "\(signedWithPublic.stderr)")
        #expect(signedWithPublic.stderr.contains("--key \(publicFile.path): release key: this is a public key, and a secret key is wanted here"),
                "\(signedWithPublic.stderr)")
        #expect(signedWithPublic.stdout.isEmpty)

        // The secret key given to a device as the key it ships; it is never printed back.
        let shippedSecret = try await StateHubBinary.run(["run", "--server", "http://127.0.0.1:9", "--app", "cart", "--user", "alice",
                                                          "--app-cache", folder.appendingPathComponent("device").path,
                                                          "--release-key", secretText.trimmingCharacters(in: .newlines)])
        #expect(shippedSecret.status == 2, "\(shippedSecret.stderr)")
        #expect(shippedSecret.stderr.contains("--release-key: release key: this is a secret key, and a public key is wanted here"),
                "\(shippedSecret.stderr)")
        let secretBase64 = String(secretText.dropFirst("statehub-ed25519-secret:".count).prefix(12))
        #expect(!shippedSecret.stderr.contains(secretBase64) && !shippedSecret.stdout.contains(secretBase64))

        // Bare base64 keys say no kind: refused, with how to make a new pair.
        let bareFile = folder.appendingPathComponent("bare.key")
        try String(secretText.dropFirst("statehub-ed25519-secret:".count)).write(to: bareFile, atomically: true, encoding: .utf8)
        let bareSecret = try await StateHubBinary.run(["release", "sign", dist.path, "--app", "cart", "--version", "1.0.0", "--key", bareFile.path])
        #expect(bareSecret.status == 2 && bareSecret.stderr.contains("statehub release keygen --out FILE"), "\(bareSecret.stderr)")
        let barePublic = try await StateHubBinary.run(["run", "--server", "http://127.0.0.1:9", "--app", "cart", "--user", "alice",
                                                       "--app-cache", folder.appendingPathComponent("device").path,
                                                       "--release-key", String(publicKey.dropFirst("statehub-ed25519-public:".count))])
        #expect(barePublic.status == 2 && barePublic.stderr.contains("a bare base64 key does not say whether it is public or secret"),
                "\(barePublic.stderr)")

        // `--key` takes a file, `--release-key` the key itself: a file name there is named as one.
        let shippedFile = try await StateHubBinary.run(["run", "--server", "http://127.0.0.1:9", "--app", "cart", "--user", "alice",
                                                        "--app-cache", folder.appendingPathComponent("device").path,
                                                        "--release-key", publicFile.path])
        #expect(shippedFile.status == 2, "\(shippedFile.stderr)")
        #expect(shippedFile.stderr.contains("--release-key \(publicFile.path) is a file name: pass the key text, e.g. --release-key \"$(cat \(publicFile.path))\""),
                "\(shippedFile.stderr)")
    }

    @Test func publishRefusesPlainHTTPBeyondLoopbackUnlessAllowed() async throws {
        try await Self.withServedBuild(version: "1.0.0") { server, keyFile, keyID, dist in
            func publish(_ version: String, to url: String, _ extra: [String] = []) async throws -> StateHubBinary.Result {
                try await StateHubBinary.run(["release", "publish", dist.path, "--app", "cart", "--version", version, "--key", keyFile.path,
                                              "--server", url, "--admin-token-file", server.folder.appendingPathComponent("token").path] + extra)
            }
            // `.invalid` never resolves (RFC 6761): past the check, the upload fails to reach it.
            let remote = "http://statehub.invalid:8080"
            let refused = try await publish("1.0.0", to: remote)
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("--server \(remote) is plain http:// to a host that is not loopback"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--allow-insecure-http"), "\(refused.stderr)")
            let allowed = try await publish("1.0.0", to: remote, ["--allow-insecure-http"])
            #expect(allowed.status == 1 && allowed.stderr.contains("\(remote) could not be reached"), "\(allowed.stderr)")
            let secure = try await publish("1.0.0", to: "https://statehub.invalid")
            #expect(secure.status == 1 && secure.stderr.contains("could not be reached"), "\(secure.stderr)")

            // Loopback by name and by address stays allowed: `localhost` reaches the server here;
            // nothing listens on [::1], which the upload (not the check) finds out.
            let port = try #require(server.base.port)
            let local = try await publish("1.0.0", to: "http://localhost:\(port)")
            #expect(local.status == 0 && local.stdout == "uploaded cart 1.0.0 signed by key \(keyID)\n", "\(local.stderr)")
            let six = try await publish("1.0.0", to: "http://[::1]:\(port)")
            #expect(six.status != 2, "\(six.stderr)")
            #expect(!six.stderr.contains("--allow-insecure-http"), "\(six.stderr)")
        }
    }

    @Test func publishNeverFollowsARedirectWithTheAdminToken() async throws {
        try await Self.withServedBuild(version: "1.0.0") { server, keyFile, _, dist in
            // The redirect's target answers as an upload would; it must never be asked.
            let target = try CannedHTTPServer(answer: "HTTP/1.1 201 Created")
            defer { target.stop() }
            let targetPort = try #require(target.base.port)
            let location = "http://localhost:\(targetPort)/admin/apps/cart/versions/1.0.0"
            let redirecting = try CannedHTTPServer(answer: "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(location)")
            defer { redirecting.stop() }

            let published = try await StateHubBinary.run(["release", "publish", dist.path, "--app", "cart", "--version", "1.0.0",
                                                          "--key", keyFile.path, "--server", redirecting.base.absoluteString,
                                                          "--admin-token-file", server.folder.appendingPathComponent("token").path])
            #expect(published.status == 1, "\(published.stderr)")
            #expect(published.stderr.contains("the server answered 307, a redirect to \(location), not followed"), "\(published.stderr)")
            #expect(published.stdout.isEmpty)
            let asked = redirecting.requestHeads
            #expect(asked.count == 1 && asked.first?.contains("Bearer \(server.token)") == true, "\(asked)")
            #expect(target.requestHeads.isEmpty, "the redirect's target was sent: \(target.requestHeads)")
        }
    }

    @Test func anUpperCaseSchemeIsAnHTTPURL() async throws {
        try await Self.withServedBuild(version: "1.0.0") { server, keyFile, keyID, dist in
            let port = try #require(server.base.port)
            let published = try await StateHubBinary.run(["release", "publish", dist.path, "--app", "cart", "--version", "1.0.0",
                                                          "--key", keyFile.path, "--server", "HTTP://127.0.0.1:\(port)",
                                                          "--admin-token-file", server.folder.appendingPathComponent("token").path])
            #expect(published.status == 0 && published.stdout == "uploaded cart 1.0.0 signed by key \(keyID)\n", "\(published.stderr)")
            let notHTTP = try await StateHubBinary.run(["run", "--server", "ftp://127.0.0.1:\(port)", "--app", "cart", "--user", "alice"])
            #expect(notHTTP.status == 2 && notHTTP.stderr.contains("--server must be an http(s) URL, not ftp://127.0.0.1:\(port)"),
                    "\(notHTTP.stderr)")
        }
    }
}
