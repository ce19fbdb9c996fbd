import Hummingbird
import MicroAppAssets
import NIOCore
import StyleTokens

extension StateHubServer {
    static let immutable = "public, max-age=31536000, immutable"

    /// `GET /`: where a person who opened the server's address goes next.
    static let indexPage = ByteBuffer(string: """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>StateHub server</title></head>
        <body><h1>StateHub server</h1><ul>
        <li><a href="/console">/console</a>: publish themes, move rollouts, open traces (admin token)</li>
        <li><a href="/openapi.yaml">/openapi.yaml</a>: the HTTP API</li>
        <li><a href="/healthz">/healthz</a>: health</li>
        <li><a href="/metrics">/metrics</a>: Prometheus metrics</li>
        </ul></body></html>

        """)

    func addPublicRoutes<Context: RequestContext>(to router: Router<Context>) {
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: Self.indexPage))
        }
        router.get("healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        let openAPI = ByteBuffer(string: OpenAPIDocument.yaml + "\n")
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: openAPI))
        }
        router.get("metrics") { _, _ in
            var bytes: [UInt8] = []
            self.metrics.emit(into: &bytes)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("apps/:app/manifest") { request, context in
            try await self.manifest(request, context)
        }
        // `bundle.js`, `style.css` and every asset path: one route, so no ordering between a
        // constant and a catch-all decides which file a URL names.
        router.get("apps/:app/:version/**") { request, context in
            try await self.versionFile(request, context)
        }
        router.get("runtime/:file") { request, context in
            try self.storeRuntime(request, context)
        }
        router.get("micro-apps/:app") { request, context in
            try await self.loader(request, context)
        }
        router.get("themes/current") { request, context in
            try await self.currentTheme(request, context)
        }
        router.get("themes/:version") { request, context in
            try await self.theme(request, context)
        }
    }

    // MARK: Parsing what the URL says

    static func appName(_ context: some RequestContext) throws -> AppName {
        guard let text = context.parameters.get("app"), let name = AppName(text) else {
            throw ServerError.badRequest("the app name must match [a-z0-9][a-z0-9-]{0,63}")
        }
        return name
    }

    static func version(_ context: some RequestContext) throws -> (text: String, semver: SemanticVersion) {
        guard let text = context.parameters.get("version"), let semver = VersionText.parse(text) else {
            throw ServerError.badRequest("the version must be a semantic version (X.Y.Z)")
        }
        return (text, semver)
    }

    // The query is parsed on every `queryParameters` read: a route reads it once and passes it on.
    static func nativeVersion(_ query: Parameters) throws -> SemanticVersion? {
        guard let text = query["nativeVersion"] else { return nil }
        guard let version = VersionText.parse(text) else {
            throw ServerError.badRequest("nativeVersion must be a semantic version (X.Y.Z)")
        }
        return version
    }

    static func user(_ query: Parameters) throws -> UserID {
        guard let text = query["user"] else { throw ServerError.badRequest("the user query parameter is required") }
        guard let user = UserID(text) else {
            if let character = AdminLabel.refusedCharacter(in: text) {
                throw ServerError.badRequest("user: the control or format character \(character) is not allowed in a user id")
            }
            throw ServerError.badRequest("user must be 1–128 bytes without control or format characters")
        }
        return user
    }

    func snapshot() async throws -> ServerSnapshot {
        do {
            return try await cache.current()
        } catch {
            logger.error("reading the state failed: \(String(reflecting: error))")
            throw ServerError.storage
        }
    }

    // MARK: Manifest

    /// The version `user` gets, or the error the manifest and the loader page answer.
    func choose(_ snapshot: ServerSnapshot, app: AppName, user: UserID, nativeVersion: SemanticVersion?)
    throws -> (ServerSnapshot.AppView, ManifestChoice, StoredVersion) {
        guard let view = snapshot.apps[app.value] else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        guard let release = view.release else { throw ServerError.notFound("no-release", "\(app) has no release yet") }
        switch ReleaseResolver.resolve(app: app.value, user: user.value, nativeVersion: nativeVersion, release: release,
                                       pinned: view.pinned, candidates: view.candidates, ascending: view.ascending) {
        case .success(let choice):
            guard let version = view.versions[choice.version] else {
                throw ServerError.notFound("no-compatible-version", "version \(choice.version) is not uploaded")
            }
            return (view, choice, version)
        case .failure(.unknownVersion(let version)):
            throw ServerError.notFound("no-compatible-version", "version \(version) is not uploaded")
        case .failure(.noCompatibleVersion(let chosen)):
            throw ServerError.notFound("no-compatible-version",
                                       "no version up to \(chosen) runs in native version \(nativeVersion.map(String.init(describing:)) ?? "?")")
        }
    }

    private func manifest(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let query = request.uri.queryParameters
        let user = try Self.user(query)
        let nativeVersion = try Self.nativeVersion(query)
        let (_, choice, version) = try choose(try await snapshot(), app: app, user: user, nativeVersion: nativeVersion)
        let body = ManifestJSON.encode(app: app.value, choice: choice, version: version)
        return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: body))
    }

    // MARK: Immutable files

    /// Headers every asset answer carries besides the immutable caching (docs/server.md, "Assets").
    static let assetHeaders: HTTPFields = [.xContentTypeOptions: "nosniff", .contentSecurityPolicy: "default-src 'none'; sandbox"]

    /// `bundle.js`, `style.css` or an asset of a version. The path is only ever a key in the
    /// version's asset table, checked by `AssetPath` first.
    private func versionFile(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let version = try Self.version(context)
        let path = context.parameters.get(String(Parameters.recursiveCaptureKey)) ?? ""
        let snapshot = try await snapshot()
        let stored = snapshot.apps[app.value]?.versions[version.text]
        switch path {
        case "bundle.js", "style.css":
            guard let stored else { throw ServerError.notFound("unknown-version", "\(app) has no version \(version.text)") }
            let stylesheet = path == "style.css"
            guard let ref = stylesheet ? stored.stylesheet : stored.bundle else {
                throw ServerError.notFound("no-stylesheet", "\(app) \(version.text) has no stylesheet")
            }
            return try await immutableResponse(request, sha256: ref.sha256,
                                               contentType: stylesheet ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8")
        default:
            let assetPath: AssetPath
            do {
                assetPath = try AssetPath(path)
            } catch {
                throw ServerError.badRequest("invalid asset path: \(error)")
            }
            guard let stored else { throw ServerError.notFound("unknown-version", "\(app) has no version \(version.text)") }
            guard let ref = stored.assetsByPath[assetPath.value] else {
                throw ServerError.notFound("unknown-asset", "\(app) \(version.text) has no asset \(assetPath)")
            }
            return try await immutableResponse(request, sha256: ref.sha256, contentType: AssetContentType.of(assetPath),
                                               extraHeaders: Self.assetHeaders)
        }
    }

    func immutableResponse(_ request: Request, sha256: String, contentType: String, extraHeaders: HTTPFields = [:]) async throws -> Response {
        let tag = EntityTag.quoted(sha256)
        if EntityTag.matches(request.headers[.ifNoneMatch], tag) {
            var headers: HTTPFields = [.eTag: tag, .cacheControl: Self.immutable]
            headers.append(contentsOf: extraHeaders)
            return Response(status: .notModified, headers: headers)
        }
        let bytes: ByteBuffer?
        do {
            bytes = try await content.bytes(sha256)
        } catch {
            logger.error("reading blob \(sha256) failed: \(String(reflecting: error))")
            throw ServerError.storage
        }
        guard let bytes else { throw ServerError.notFound("missing-content", "the content \(sha256) is not stored") }
        var headers: HTTPFields = [.contentType: contentType, .eTag: tag, .cacheControl: Self.immutable]
        headers.append(contentsOf: extraHeaders)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
    }

    // MARK: Loader page

    /// The store runtime under its content-hashed name; any other name is `404`.
    private func storeRuntime(_ request: Request, _ context: some RequestContext) throws -> Response {
        let runtime = loaderPage.runtime
        guard context.parameters.get("file") == runtime.fileName else {
            throw ServerError.notFound("unknown-runtime", "the store runtime is served at \(runtime.path)")
        }
        let tag = EntityTag.quoted(runtime.sha256)
        if EntityTag.matches(request.headers[.ifNoneMatch], tag) {
            return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: Self.immutable])
        }
        return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .eTag: tag, .cacheControl: Self.immutable],
                        body: ResponseBody(byteBuffer: runtime.bytes))
    }

    private func loader(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        let query = request.uri.queryParameters
        let user = try Self.user(query)
        let nativeVersion = try Self.nativeVersion(query)
        let snapshot = try await snapshot()
        let (_, _, version) = try choose(snapshot, app: app, user: user, nativeVersion: nativeVersion)
        let theme = nativeVersion.map { snapshot.currentThemes[$0.major] } ?? snapshot.newestTheme
        let html = loaderPage.render(app: app.value, version: version, themeCSS: theme?.css ?? "")
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    // MARK: Themes

    private func currentTheme(_ request: Request, _ context: some RequestContext) async throws -> Response {
        guard let nativeVersion = try Self.nativeVersion(request.uri.queryParameters) else {
            throw ServerError.badRequest("the nativeVersion query parameter is required")
        }
        guard let theme = try await snapshot().currentThemes[nativeVersion.major] else {
            throw ServerError.notFound("no-theme", "no published theme for major version \(nativeVersion.major)")
        }
        if EntityTag.matches(request.headers[.ifNoneMatch], theme.entityTag) {
            return Response(status: .notModified, headers: [.eTag: theme.entityTag, .cacheControl: "no-cache"])
        }
        return Response(status: .ok, headers: [.contentType: "application/json", .eTag: theme.entityTag, .cacheControl: "no-cache"],
                        body: ResponseBody(byteBuffer: theme.body))
    }

    private func theme(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let version = try Self.version(context)
        guard let theme = try await snapshot().publishedThemes[version.text] else {
            throw ServerError.notFound("no-theme", "no published theme \(version.text)")
        }
        return try await immutableResponse(request, sha256: theme.sha256, contentType: "application/json")
    }
}
