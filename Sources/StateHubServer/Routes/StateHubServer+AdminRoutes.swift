import Foundation
import Hummingbird
import MicroAppAssets
import NIOCore
import StateHubJSON
import StyleTokens

extension StateHubServer {
    struct VersionUpload: Decodable {
        struct Asset: Decodable {
            var path: String
            /// Standard base64 (docs/server.md, "Assets").
            var data: String
        }
        var bundle: String
        var stylesheet: String?
        var minNativeVersion: String?
        var assets: [Asset]?
        /// The publisher's signature (docs/server.md, "Signed releases"); checked for form only.
        var signature: VersionSignature?
    }

    struct PinBody: Decodable { var version: String }
    struct TokenBody: Decodable { var label: String }

    func addAdminRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.put("apps/:app/versions/:version") { request, context in
            try await self.uploadVersion(request, context)
        }
        group.get("apps/:app") { _, context in
            try await self.describeApp(context)
        }
        group.put("apps/:app/release") { request, context in
            try await self.setRelease(request, context)
        }
        group.put("apps/:app/pin") { request, context in
            try await self.pin(request, context)
        }
        group.delete("apps/:app/pin") { _, context in
            let app = try Self.appName(context)
            let author = try Self.author()
            guard try await self.write({ try await self.storage.setPin(app: app.value, version: nil, by: author) }) else {
                throw ServerError.notFound("unknown-app", "no app named \(app)")
            }
            return Response(status: .noContent)
        }
        group.post("apps/:app/rollback") { request, context in
            let app = try Self.appName(context)
            let author = try Self.author()
            let ifMatch = request.headers[.ifMatch]
            return try Self.releaseAnswer(app, try await self.write({ try await self.storage.rollback(app: app.value, ifMatch: ifMatch, by: author) }),
                                          ifMatch: ifMatch)
        }
        group.put("themes/:version") { request, context in
            try await self.uploadTheme(request, context)
        }
        group.post("themes/:version/publish") { _, context in
            try await self.publishTheme(context, true)
        }
        group.post("themes/:version/unpublish") { _, context in
            try await self.publishTheme(context, false)
        }
        group.post("tokens") { request, context in
            let body = try await Self.decode(TokenBody.self, request, context, limit: self.configuration.maxSmallBodyBytes)
            guard !body.label.isEmpty, body.label.utf8.count <= 128 else { throw ServerError.badRequest("label: 1–128 bytes") }
            try AdminLabel.check(body.label, field: "label")
            let token = AdminToken.generate()
            let author = try Self.author()
            let id = try await self.write { try await self.storage.addToken(hash: AdminToken.hash(token), label: body.label, by: author) }
            return try Self.json(["id": .int(id), "token": .string(token)] as [String: TokenField], status: .created)
        }
        group.delete("tokens/:id") { _, context in
            let id = try Self.tokenID(context)
            let author = try Self.author()
            guard try await self.write({ try await self.storage.deleteToken(id: id, by: author) }) else {
                throw ServerError.notFound("unknown-token", "no token \(id)")
            }
            return Response(status: .noContent)
        }
    }

    /// A token id from the path: plain decimal digits only (`+5`, ` 5` or `05x` is no id;
    /// `Int("+5")` read `+5` as token 5).
    static func tokenID(_ context: some RequestContext) throws -> Int {
        let text = context.parameters.get("id") ?? ""
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = Int(text) else {
            throw ServerError.badRequest("the token id is a number written in digits only, not \(JSONValue.string(text).jsonText())")
        }
        return id
    }

    enum TokenField: Encodable {
        case int(Int), string(String)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .int(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            }
        }
    }

    // MARK: Helpers

    /// The admin token of this request, for the audit row of its change. Every admin route sits
    /// behind `AdminAuthMiddleware`, which sets it; without it the request is not an admin's.
    static func author() throws -> AdminIdentity {
        guard let identity = AdminIdentity.current else { throw ServerError.unauthorized }
        return identity
    }

    /// Runs a storage write, maps failures to `500 storage`, and invalidates the snapshot.
    func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await body()
            cache.invalidate()
        } catch {
            logger.error("a write failed: \(String(reflecting: error))")
            throw ServerError.storage
        }
        if storage.isShared {
            // Answered only once every live instance dropped its snapshot (docs/server.md, "Hot
            // reads and invalidation across instances"); the write itself is committed either way.
            do {
                let behind = try await storage.waitUntilInstancesSeeCurrentGeneration(clock: clock)
                if !behind.isEmpty {
                    logger.warning("instances \(behind) did not confirm the write within \(ServerStorage.instanceLease); they stop serving from memory on their own")
                }
            } catch {
                logger.warning("could not confirm that other instances saw the write: \(String(reflecting: error))")
            }
        }
        return value
    }

    static func body(_ request: Request, _ context: some RequestContext, limit: Int) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw ServerError.tooLarge(limit) }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ServerError.tooLarge(limit)
        } catch is NIOTooManyBytesError {
            // A chunked body (no Content-Length) over the cap: the same JSON answer, not
            // Hummingbird's empty 413.
            throw ServerError.tooLarge(limit)
        }
    }

    static func decode<T: AdminBody>(_ type: T.Type, _ request: Request, _ context: some RequestContext, limit: Int) async throws -> T {
        let buffer = try await body(request, context, limit: limit)
        // A key written twice or a member the route does not know is refused, naming it
        // (AdminBodyShape); any other fault is the decoder's to name, as before.
        var parsed: JSONValue?
        do throws(JSONParseError) {
            parsed = try JSONParser(options: JSONParsingOptions(duplicateKeys: .refuse)).parse(Array(buffer.readableBytesView))
        } catch {
            if case .duplicateKey(let key) = error.reason {
                let place = error.path.dropLast().map(\.description).joined()
                throw ServerError.badRequest("the body has the key \(JSONValue.string(key).jsonText()) twice"
                                             + (place.isEmpty ? "" : " in \(place)") + " (line \(error.line), column \(error.column))")
            }
        }
        if let parsed, let unknown = T.shape.refusal(in: parsed) { throw unknown }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            throw ServerError.badRequest("the body is not the JSON this route takes: \(Self.describe(error))")
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): "malformed JSON: \(context.debugDescription)"
        default: "\(error)"
        }
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder.sorted.encode(value)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Versions and releases

    private func uploadVersion(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let version = try Self.version(context)
        let upload = try await Self.decode(VersionUpload.self, request, context, limit: configuration.maxUploadBytes)
        let minimum = upload.minNativeVersion ?? "0.0.0"
        guard VersionText.parse(minimum) != nil else { throw ServerError.badRequest("minNativeVersion must be a semantic version") }
        guard !upload.bundle.isEmpty else { throw ServerError.badRequest("the bundle is empty") }
        if let problem = upload.signature?.formProblem { throw ServerError.badRequest(problem) }
        let assets = try checkAssets(upload.assets ?? [])
        let author = try Self.author()
        let outcome = try await write {
            try await self.storage.putVersion(app: app.value, version: version.text, bundle: Data(upload.bundle.utf8),
                                              stylesheet: upload.stylesheet.map { Data($0.utf8) }, minNativeVersion: minimum,
                                              assets: assets, signature: upload.signature, by: author)
        }
        switch outcome {
        case .created: return Response(status: .created, headers: [.location: AssetPaths.bundle(app: app.value, version: version.text)])
        case .unchanged: return Response(status: .ok)
        case .conflict: throw ServerError(.conflict, "version-exists", "\(app) \(version.text) exists with other content; versions are immutable")
        }
    }

    /// The uploaded assets, decoded, when every rule holds (docs/server.md, "Assets");
    /// otherwise `422 invalid-assets` with one problem per broken rule and asset.
    func checkAssets(_ uploads: [VersionUpload.Asset]) throws -> [UploadedAsset] {
        var problems: [ServerError.Problem] = []
        func problem(_ path: String, _ message: String) { problems.append(.init(path: path, severity: "error", message: message)) }
        if uploads.count > configuration.maxAssetCount {
            problem("assets", "\(uploads.count) assets; at most \(configuration.maxAssetCount) per version")
        }
        var checked: [(index: Int, path: AssetPath, data: Data)] = []
        var total = 0
        for (index, upload) in uploads.enumerated() {
            let path: AssetPath
            do {
                path = try AssetPath(upload.path)
            } catch {
                problem("assets[\(index)].path", "\(error)")
                continue
            }
            guard let data = Data(base64Encoded: upload.data) else {
                problem("assets[\(index)].data", "\(path) is not standard base64")
                continue
            }
            if data.count > configuration.maxAssetBytes {
                problem("assets[\(index)].data", "\(path) is \(data.count) bytes; at most \(configuration.maxAssetBytes) per asset")
            }
            total += data.count
            checked.append((index, path, data))
        }
        if total > configuration.maxAssetsTotalBytes {
            problem("assets", "the assets are \(total) bytes together; at most \(configuration.maxAssetsTotalBytes) per version")
        }
        for collision in AssetPath.collisions(in: checked.map(\.path)) {
            problem("assets[\(checked[collision.index].index)].path", collision.description)
        }
        guard problems.isEmpty else {
            throw ServerError(.unprocessableContent, "invalid-assets", "\(problems.count) problem(s) with the assets", problems: problems)
        }
        return checked.map { UploadedAsset(path: $0.path.value, folded: $0.path.folded, data: $0.data) }
    }

    struct AppDescription: Encodable {
        struct Version: Encodable {
            var version: String
            var minNativeVersion: String
            var bundle: AssetRef
            var stylesheet: AssetRef?
            var assets: [PathAsset]
            /// `null` for an unsigned version.
            var signature: VersionSignature?

            private enum CodingKeys: String, CodingKey { case version, minNativeVersion, bundle, stylesheet, assets, signature }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(version, forKey: .version)
                try container.encode(minNativeVersion, forKey: .minNativeVersion)
                try container.encode(bundle, forKey: .bundle)
                try container.encodeIfPresent(stylesheet, forKey: .stylesheet)
                try container.encode(assets, forKey: .assets)
                try container.encode(signature, forKey: .signature)
            }
        }
        /// One asset as the manifest lists it.
        struct PathAsset: Encodable {
            var path: String
            var url: String
            var sha256: String
            var size: Int
        }
        var app: String
        var versions: [Version]
        var release: ReleaseSpec?
        var pinnedVersion: String?
    }

    private func describeApp(_ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        guard let view = try await snapshot().apps[app.value] else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        let versions = view.ascending.compactMap { entry in view.versions[entry.text] }.map { version in
            AppDescription.Version(
                version: version.version, minNativeVersion: version.minNativeVersion, bundle: version.bundle, stylesheet: version.stylesheet,
                assets: version.assets.map {
                    .init(path: $0.path, url: AssetPaths.asset(app: app.value, version: version.version, path: $0.path),
                          sha256: $0.ref.sha256, size: $0.ref.size)
                },
                signature: version.signature)
        }
        var response = try Self.json(AppDescription(app: app.value, versions: versions, release: view.release, pinnedVersion: view.pinned))
        // What a release save or rollback may send back as `If-Match`.
        response.headers[.eTag] = ReleaseTag.tag(view.releaseID)
        return response
    }

    private func setRelease(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let spec = try await Self.decode(ReleaseSpec.self, request, context, limit: configuration.maxSmallBodyBytes)
        if let refused = spec.refusedField() { throw ServerError.badRequest(refused) }
        let problems = spec.shapeProblems()
        guard problems.isEmpty else {
            throw ServerError(.unprocessableContent, "invalid-release", problems.joined(separator: "; "))
        }
        guard let view = try await snapshot().apps[app.value] else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        let missing = spec.namedVersions.subtracting(view.versions.keys).sorted()
        guard missing.isEmpty else {
            throw ServerError(.unprocessableContent, "unknown-version", "not uploaded: \(missing.joined(separator: ", "))")
        }
        let author = try Self.author()
        let ifMatch = request.headers[.ifMatch]
        return try Self.releaseAnswer(app, try await write({ try await self.storage.setRelease(app: app.value, spec: spec, ifMatch: ifMatch, by: author) }),
                                      ifMatch: ifMatch)
    }

    /// The answer of a release save or rollback: the release now current with its `ETag`, or why not.
    /// A stale `If-Match` is `412 release-changed`: someone else saved since the caller read the
    /// release, and nothing was written (docs/server.md, "Saving over a concurrent change").
    /// The message names the `If-Match` that was sent, and says so when it names the current
    /// release but not as a quoted entity tag (`release-10` for `"release-10"`).
    static func releaseAnswer(_ app: AppName, _ outcome: ServerStorage.ReleaseWrite, ifMatch: String? = nil) throws -> Response {
        switch outcome {
        case .unknownApp: throw ServerError.notFound("unknown-app", "no app named \(app)")
        case .nothingToRollBack: throw ServerError(.conflict, "nothing-to-roll-back", "\(app) has no earlier release")
        case .stale(let currentID):
            let current = ReleaseTag.tag(currentID)
            let sent = ifMatch.map { " If-Match was \(JSONValue.string($0).jsonText())" } ?? ""
            let bare = current.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let unquoted = ifMatch.map { EntityTag.listed($0).contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) == bare } } ?? false
            if unquoted {
                throw ServerError(.preconditionFailed, "release-changed",
                                  "the release of \(app) is \(current), but\(sent): an entity tag is sent exactly as the ETag header gives it, "
                                  + "in double quotes and without spaces inside; nothing was written")
            }
            throw ServerError(.preconditionFailed, "release-changed",
                              "the release of \(app) changed since it was read (it is now \(current);\(sent)); read it again, then save")
        case .written(let id, let spec):
            var response = try json(spec)
            response.headers[.eTag] = ReleaseTag.tag(id)
            return response
        }
    }

    private func pin(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let body = try await Self.decode(PinBody.self, request, context, limit: configuration.maxSmallBodyBytes)
        guard VersionText.parse(body.version) != nil else { throw ServerError.badRequest("version must be a semantic version") }
        guard let view = try await snapshot().apps[app.value] else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        guard view.versions[body.version] != nil else {
            throw ServerError(.unprocessableContent, "unknown-version", "not uploaded: \(body.version)")
        }
        let author = try Self.author()
        guard try await write({ try await self.storage.setPin(app: app.value, version: body.version, by: author) }) else {
            throw ServerError.notFound("unknown-app", "no app named \(app)")
        }
        return try Self.json(["pinnedVersion": body.version])
    }

    // MARK: Themes

    private func uploadTheme(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let version = try Self.version(context)
        let buffer = try await Self.body(request, context, limit: configuration.maxThemeBytes)
        let data = Data(buffer.readableBytesView)
        let (issues, theme) = ThemeLoader.inspect(data)
        let problems = issues.map { ServerError.Problem(path: $0.path, severity: $0.severity.rawValue, message: $0.problem.message) }
        guard let theme, !issues.contains(where: { $0.severity == .error }) else {
            throw ServerError(.unprocessableContent, "invalid-theme",
                              "the theme has \(issues.filter { $0.severity == .error }.count) error(s)", problems: problems)
        }
        guard theme.version == version.semver, theme.version.description == version.text else {
            throw ServerError(.unprocessableContent, "invalid-theme", "metadata.version is \(theme.version), the URL says \(version.text)",
                              problems: problems + [.init(path: "metadata.version", severity: "error",
                                                          message: "must equal the version in the URL, \(version.text)")])
        }
        let author = try Self.author()
        let outcome = try await write {
            try await self.storage.putTheme(version: version.text, major: version.semver.major, data: data, by: author)
        }
        switch outcome {
        case .created: return Response(status: .created)
        case .unchanged: return Response(status: .ok)
        case .conflict: throw ServerError(.conflict, "theme-exists", "theme \(version.text) exists with other content; themes are immutable")
        }
    }

    private func publishTheme(_ context: some RequestContext, _ published: Bool) async throws -> Response {
        let version = try Self.version(context)
        let author = try Self.author()
        switch try await write({ try await self.storage.setThemePublished(version: version.text, published, by: author) }) {
        case .unknownTheme:
            throw ServerError.notFound("no-theme", "no theme \(version.text)")
        case .lastPublished(let major):
            throw ServerError(.conflict, "last-published-theme",
                              "\(version.text) is the only published theme of major version \(major): unpublishing it would leave shells of "
                                + "\(major).x with no theme (/themes/current 404); publish another \(major).x theme first")
        case .done:
            return try Self.json(["version": version.text, "state": published ? "published" : "unpublished"])
        }
    }
}
