import Foundation
import Hummingbird
import NIOCore
import StyleTokens

/// The console (docs/console.md): its page under `/console`, and the read-only admin routes under
/// `/admin/console/` that the admin API lacked (a theme check with lines, lists with upload times,
/// the release history, a trace read as its timeline).
extension StateHubServer {
    /// Adds `GET /console` and its files to `router`, and the console's admin routes to `admin`
    /// (a group behind the bearer check).
    func addConsoleRoutes<Context: RequestContext>(to router: Router<Context>, admin: RouterGroup<Context>) {
        let page: ConsolePage
        do {
            page = try ConsolePage(runtime: loaderPage.runtime, maxTraceBytes: configuration.maxTraceBytes)
        } catch {
            // A build without js/console/: say so on every console request instead of failing the server.
            logger.error("the console is unavailable: \(error)")
            router.get("console") { _, _ -> Response in throw ServerError.notFound("no-console", "this build has no console") }
            return
        }
        router.get("console") { _, _ in try Self.consoleFile(page, "index.html") }
        router.get("console/:file") { _, context in
            try Self.consoleFile(page, context.parameters.get("file") ?? "")
        }
        admin.post("console/theme-check") { request, context in
            let buffer = try await Self.body(request, context, limit: self.configuration.maxThemeBytes)
            return try Self.json(ThemeCheckAnswer(Data(buffer.readableBytesView)))
        }
        admin.get("console/themes") { _, _ in
            try await self.consoleThemes()
        }
        admin.get("console/apps") { _, _ in
            let snapshot = try await self.snapshot()
            let apps = snapshot.apps.values.sorted { $0.name < $1.name }.map {
                ConsoleApp(name: $0.name, release: $0.release, pinnedVersion: $0.pinned, versions: $0.ascending.map(\.text))
            }
            return try Self.json(apps)
        }
        admin.get("console/apps/:app/versions") { _, context in
            try await self.consoleVersions(context)
        }
        admin.get("console/apps/:app/releases") { _, context in
            try await self.consoleReleases(context)
        }
        admin.get("console/audit") { request, _ in
            try await self.consoleAudit(request)
        }
        admin.post("console/trace-timeline") { request, context in
            // Off the event loops, a bounded number at once (TraceTimelineWorkers); the slot is
            // taken before the body is read, so a refusal reads nothing.
            let workers = self.traceWorkers
            guard workers.reserve() else {
                throw ServerError(.serviceUnavailable, "busy",
                                  "the server is already reading \(workers.limit) traces; try again in a few seconds")
            }
            defer { workers.release() }
            let maxTraceBytes = self.configuration.maxTraceBytes
            let buffer = try await Self.body(request, context, limit: maxTraceBytes)
            let answer = try await workers.run { () throws(ServerError) -> Response in
                try TraceTimelineAnswer(ndjson: Data(buffer.readableBytesView), maxTraceBytes: maxTraceBytes).response
            }
            return answer
        }
    }

    /// A storage read of the console's own; a failure is logged and answered `500 storage`.
    private func consoleRead<T: Sendable>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            logger.error("\(what) failed: \(String(reflecting: error))")
            throw ServerError.storage
        }
    }

    private static func consoleFile(_ page: ConsolePage, _ name: String) throws -> Response {
        guard let file = page.files[name] else {
            // Answered here, not thrown, so the 404 carries the console's CSP and nosniff too
            // (docs/console.md: every console answer does).
            var response = ServerError.notFound("unknown-console-file", "the console has no file named \(name)").response
            response.headers[.contentSecurityPolicy] = ConsolePage.headers[.contentSecurityPolicy]
            response.headers[.xContentTypeOptions] = ConsolePage.headers[.xContentTypeOptions]
            return response
        }
        var headers = ConsolePage.headers
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.bytes))
    }

    // MARK: Themes

    /// The answer of `POST /admin/console/theme-check`: every issue with its path and line, and
    /// for a theme without errors the stylesheet the loader page would inject.
    struct ThemeCheckAnswer: Encodable {
        struct Problem: Encodable {
            var path: String
            var severity: String
            var message: String
            var line: Int?
            var column: Int?
        }
        /// A name with the custom property (or property prefix) ThemeCSS gives it.
        struct Name: Encodable {
            var name: String
            var variable: String
        }
        var valid: Bool
        var version: String?
        var problems: [Problem]
        var stylesheet: String?
        var colors: [Name]
        var fonts: [Name]
        var components: [Name]

        init(_ data: Data) {
            let (issues, theme) = ThemeLoader.inspect(data)
            problems = issues.map {
                Problem(path: $0.path, severity: $0.severity.rawValue, message: $0.problem.message, line: $0.line, column: $0.column)
            }
            let resolved = issues.contains { $0.severity == .error } ? nil : theme
            valid = resolved != nil
            version = resolved?.version.description
            stylesheet = resolved.map(ThemeCSS.stylesheet(for:))
            colors = resolved?.light.colors.keys.map { Name(name: $0, variable: CSSPropertyNames.color($0)) } ?? []
            fonts = resolved?.fonts.keys.map { Name(name: $0, variable: "--font-\(CSSPropertyNames.kebabCase($0))") } ?? []
            components = resolved?.contract.components.keys.map {
                Name(name: $0, variable: "--\(CSSPropertyNames.kebabCase($0))")
            } ?? []
        }
    }

    struct ConsoleTheme: Encodable {
        var version: String
        var major: Int
        var sha256: String
        var published: Bool
        /// The theme `/themes/current` answers for its major version.
        var current: Bool
        var createdAt: Int
    }

    private func consoleThemes() async throws -> Response {
        let snapshot = try await snapshot()
        let rows = try await consoleRead("listing themes") { try await self.storage.consoleThemes() }
        let themes = rows.map { row in
            ConsoleTheme(version: row.version, major: row.major, sha256: row.sha256, published: row.published,
                         current: snapshot.currentThemes[row.major]?.version == row.version, createdAt: row.createdAt)
        }.sorted { left, right in
            switch (VersionText.parse(left.version), VersionText.parse(right.version)) {
            case let (l?, r?): r < l
            default: left.version > right.version
            }
        }
        return try Self.json(themes)
    }

    // MARK: Apps

    struct ConsoleApp: Encodable {
        var name: String
        var release: ReleaseSpec?
        var pinnedVersion: String?
        /// Version numbers, lowest first.
        var versions: [String]
    }

    struct ConsoleVersion: Encodable {
        var version: String
        var minNativeVersion: String
        /// Seconds since 1970.
        var createdAt: Int
        var bundle: AssetRef
        var stylesheet: AssetRef?
        var assetCount: Int
        /// Bundle, stylesheet and assets together.
        var totalBytes: Int
        /// The id of the key that signed the version; absent when it is unsigned.
        var signatureKeyId: String?
    }

    private func consoleVersions(_ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        guard let view = try await snapshot().apps[app.value] else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        let rows = try await consoleRead("listing versions") { try await self.storage.consoleVersionTimes(app: app.value) }
        let times = Dictionary(rows.map { ($0.version, $0.createdAt) }, uniquingKeysWith: { first, _ in first })
        let versions = view.ascending.compactMap { view.versions[$0.text] }.map { version in
            ConsoleVersion(version: version.version, minNativeVersion: version.minNativeVersion, createdAt: times[version.version] ?? 0,
                           bundle: version.bundle, stylesheet: version.stylesheet, assetCount: version.assets.count,
                           totalBytes: version.bundle.size + (version.stylesheet?.size ?? 0) + version.assets.reduce(0) { $0 + $1.ref.size },
                           signatureKeyId: version.signature?.keyId)
        }
        return try Self.json(versions)
    }

    struct ConsoleRelease: Encodable {
        var id: Int
        var release: ReleaseSpec
        /// The release this one replaced (a rollback's row names the one before the release it restored).
        var previousID: Int?
        /// Seconds since 1970.
        var createdAt: Int
        var current: Bool
    }

    /// At most this many releases are listed: the newest ones.
    static let consoleReleaseLimit = 50

    private func consoleReleases(_ context: some RequestContext) async throws -> Response {
        let app = try Self.appName(context)
        guard try await snapshot().apps[app.value] != nil else { throw ServerError.notFound("unknown-app", "no app named \(app)") }
        let rows = try await consoleRead("listing releases") {
            try await self.storage.consoleReleases(app: app.value, limit: Self.consoleReleaseLimit)
        }
        let releases = try rows.map { row in
            guard let spec = try? JSONDecoder().decode(ReleaseSpec.self, from: Data(row.spec.utf8)) else {
                logger.error("release \(row.id) of \(app) is not a release")
                throw ServerError.storage
            }
            return ConsoleRelease(id: row.id, release: spec, previousID: row.previousID, createdAt: row.createdAt, current: row.current)
        }
        return try Self.json(releases)
    }

    // MARK: Audit

    /// A page of `GET /admin/console/audit`: `next` is the `before` of the following page, absent
    /// on the last one.
    struct AuditPage: Encodable {
        var entries: [AuditEntry]
        var next: Int?
    }

    /// Rows per page unless `limit` says otherwise, and the most `limit` may ask for.
    static let auditPageDefault = 50
    static let auditPageMaximum = 200

    private func consoleAudit(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var limit = Self.auditPageDefault
        if let text = query["limit"] {
            guard let value = Int(String(text)), (1...Self.auditPageMaximum).contains(value) else {
                throw ServerError.badRequest("limit must be a whole number from 1 to \(Self.auditPageMaximum)")
            }
            limit = value
        }
        var before: Int?
        if let text = query["before"] {
            guard let value = Int(String(text)), value > 0 else { throw ServerError.badRequest("before must be an audit id (a whole number above 0)") }
            before = value
        }
        // One row more than asked says whether another page follows.
        let rows = try await consoleRead("listing the audit list") { try await self.storage.auditEntries(limit: limit + 1, before: before) }
        let entries = Array(rows.prefix(limit))
        return try Self.json(AuditPage(entries: entries, next: rows.count > limit ? entries.last?.id : nil))
    }
}
