import ArgumentParser
import Delivery
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `statehub release keygen | sign | publish`: signed releases from a build folder
/// (docs/server.md, "Signed releases").
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Make a release signing key, sign a build folder, or sign and upload it (docs/server.md, \"Signed releases\").",
        discussion: "Exit 0 done, 1 the server refused the upload or could not be reached, 2 an argument, file or key is wrong.",
        subcommands: [Keygen.self, Sign.self, Publish.self]
    )

    /// What `sign` and `publish` share: the folder, what it is, and the key.
    struct VersionOptions: ParsableArguments {
        @Argument(help: "The build folder: bundle.js, optionally style.css, and every other file an asset at its path.")
        var folder: String

        @Option(help: "The micro-app's name.")
        var app: String

        @Option(help: "The version to upload (a semantic version).")
        var version: String

        @Option(help: "The oldest shell version the bundle runs in.")
        var minNativeVersion: String = "0.0.0"

        @Option(help: "The secret key file `statehub release keygen` wrote (statehub-ed25519-secret:…).")
        var key: String

        /// The upload body, signed, and who signed it.
        func signedUpload() throws -> (body: String, signature: ReleaseSignature) {
            let keyText: String
            do {
                keyText = try String(contentsOfFile: key, encoding: .utf8)
            } catch {
                throw CLIError.unreadableFile(path: key, reason: error.localizedDescription).exit()
            }
            let signingKey: ReleaseSigningKey
            do {
                signingKey = try ReleaseSigningKey(fileText: keyText)
            } catch {
                throw CLIError.badArgument("--key \(key): \(error)").exit()
            }
            do {
                let build = try ReleaseBuildFolder(URL(fileURLWithPath: folder))
                if let note = build.hiddenNote { Output.error("statehub: \(note)") }
                let signature = try signingKey.sign(try build.statement(app: app, version: version, minNativeVersion: minNativeVersion))
                return (build.uploadBody(minNativeVersion: minNativeVersion, signature: signature), signature)
            } catch let error as CLIError {
                throw error.exit()
            } catch {
                throw CLIError.badArgument("\(error)").exit()
            }
        }
    }

    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new Ed25519 secret key file (mode 0600) and print its public key and key id.",
            discussion: "Ship the public key in the app (ReleaseTrust.publicKeys); keep the file with the publisher, never on the server.")

        @Option(help: "The secret key file to create (an existing file is not overwritten).")
        var out: String

        func run() async throws {
            let key = ReleaseSigningKey()
            // Created with its final mode and never over an existing file: no moment where others may read it.
            let descriptor = open(out, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { throw CLIError.badArgument("cannot create \(out): \(String(cString: strerror(errno)))").exit() }
            let bytes = Array(key.fileText.utf8)
            let written = write(descriptor, bytes, bytes.count)
            close(descriptor)
            guard written == bytes.count else { throw CLIError.badArgument("cannot write \(out)").exit() }
            Output.line("public key: \(key.publicKey.text)")
            Output.line("key id: \(key.publicKey.keyID)")
        }
    }

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the version's upload body with its signature, for a pipeline that uploads it itself.",
            discussion: "PUT it to /admin/apps/APP/versions/VERSION (docs/server.md, \"Admin API\").")

        @OptionGroup var options: VersionOptions

        @Option(name: .shortAndLong, help: "Where to write the body (default: stdout).")
        var output: String?

        func run() async throws {
            let signed = try options.signedUpload()
            guard let output else { return Output.raw(signed.body) }
            do {
                try Data((signed.body + "\n").utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw CLIError.badArgument("cannot write \(output): \(error.localizedDescription)").exit()
            }
            Output.error("statehub: \(options.app) \(options.version) signed by key \(signed.signature.keyID), written to \(output)")
        }
    }

    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a build folder and upload it as a version, in one command.",
            discussion: """
                The admin token comes from --admin-token-file or the environment variable STATEHUB_ADMIN_TOKEN, \
                never from an argument (arguments show in process lists and CI logs), and goes only to --server: \
                a redirect is refused, not followed. Uploading the same version again with the same bytes and \
                signature is not an error.
                """)

        @OptionGroup var options: VersionOptions

        @Option(help: "The StateHub server, e.g. https://statehub.example.com.")
        var server: String

        @Option(help: "A file holding the admin token.")
        var adminTokenFile: String?

        @Flag(name: .customLong("allow-insecure-http"),
              help: "Send the admin token over plain http:// to a server that is not on loopback, readable on every network it crosses.")
        var allowInsecureHTTP = false

        func run() async throws {
            let base = try ServerURL.parse(server)
            if base.scheme == "http", !allowInsecureHTTP, !Self.isLoopback(base.host ?? "") {
                throw CLIError.badArgument("""
                    --server \(server) is plain http:// to a host that is not loopback: the admin token would cross the \
                    network unencrypted. Use https://, or pass --allow-insecure-http to send it anyway
                    """).exit()
            }
            let token = try adminToken()
            let signed = try options.signedUpload()
            let url = base.appendingPathComponent("admin/apps/\(options.app)/versions/\(options.version)")
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(signed.body.utf8)
            let answer: AdminRequest.Answer
            do {
                answer = try await AdminRequest.send(request)
            } catch {
                Output.error("statehub: \(server) could not be reached: \(error.localizedDescription)")
                throw ExitCode(1)
            }
            let what = "\(options.app) \(options.version) signed by key \(signed.signature.keyID)"
            switch answer.status {
            case 201: Output.line("uploaded \(what)")
            case 200: Output.line("already uploaded: \(what), the same bytes and signature")
            case 300 ..< 400:
                Output.error("""
                    statehub: the server answered \(answer.status), a redirect to \(answer.location ?? "no location"), not \
                    followed: the admin token goes only to --server. If that target is your server, give it as --server
                    """)
                throw ExitCode(1)
            default:
                Output.error("statehub: the server answered \(answer.status): \(String(decoding: answer.body.prefix(2_000), as: UTF8.self))")
                throw ExitCode(1)
            }
        }

        /// Whether `host` (as `URL.host` gives it) is this machine: `localhost`, `127.0.0.0/8` or `::1`.
        static func isLoopback(_ host: String) -> Bool {
            let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if name == "localhost" || name == "::1" { return true }
            let octets = name.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        }

        private func adminToken() throws -> String {
            let text: String
            if let adminTokenFile {
                do {
                    text = try String(contentsOfFile: adminTokenFile, encoding: .utf8)
                } catch {
                    throw CLIError.unreadableFile(path: adminTokenFile, reason: error.localizedDescription).exit()
                }
            } else if let variable = ProcessInfo.processInfo.environment["STATEHUB_ADMIN_TOKEN"] {
                text = variable
            } else {
                throw CLIError.badArgument("publish needs the admin token: --admin-token-file FILE or STATEHUB_ADMIN_TOKEN").exit()
            }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, !token.contains(where: { $0.isNewline || $0 == " " }) else {
                throw CLIError.badArgument("the admin token is empty or spans several words").exit()
            }
            return token
        }
    }
}
