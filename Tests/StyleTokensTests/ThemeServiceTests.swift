import Foundation
import Observation
import Testing
@testable import StyleTokens

@Suite("Theme service", .tags(.unit))
@MainActor
final class ThemeServiceTests {
    let sourceDirectory: URL
    let cacheDirectory: URL

    init() throws {
        sourceDirectory = try ThemeFixtures.temporaryDirectory()
        cacheDirectory = try ThemeFixtures.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: sourceDirectory)
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func publish(_ text: String, major: Int = 1) throws {
        try ThemeFixtures.data(text).write(to: sourceDirectory.appendingPathComponent("v\(major).json"))
    }

    private func makeService(appMajorVersion: Int = 1, bundledDefault: Data = DefaultTheme.data) throws -> ThemeService {
        try ThemeService(appMajorVersion: appMajorVersion, source: FileThemeSource(directory: sourceDirectory),
                         cache: ThemeCache(directory: cacheDirectory), bundledDefault: bundledDefault)
    }

    @Test("starts from the bundled default")
    func startsFromDefault() throws {
        let service = try makeService()
        #expect(service.origin == .bundledDefault)
        #expect(service.theme.version == SemanticVersion(major: 1, minor: 0, patch: 0))
        #expect(service.styleSheet == ThemeCSS.stylesheet(for: service.theme))
        #expect(service.lastFailure == nil)
    }

    @Test("a missing theme keeps the current one and says why")
    func missingTheme() async throws {
        let service = try makeService()
        let outcome = await service.start()
        let expected = ThemeServiceError.sourceFailed(.notFound(location: sourceDirectory.appendingPathComponent("v1.json").path))
        #expect(outcome == .failed(expected))
        #expect(service.lastFailure == expected)
        #expect(service.origin == .bundledDefault)
    }

    @Test("a corrupt theme keeps the current one and says why")
    func corruptTheme() async throws {
        try publish(#"{"metadata": {"version": "1.2.0"},"#)
        let service = try makeService()
        let outcome = await service.refresh()
        #expect(outcome == .failed(.undecodable(.source, .malformedJSON(line: 1, column: 35, reason: "expected a key in double quotes"))))
        #expect(service.origin == .bundledDefault)
        #expect(!FileManager.default.fileExists(atPath: ThemeCache(directory: cacheDirectory).fileURL(forMajorVersion: 1).path))
    }

    @Test("a theme for another major version is incompatible and never applied")
    func incompatibleTheme() async throws {
        try publish(ThemeFixtures.theme(version: "2.0.0"))
        let service = try makeService()
        let outcome = await service.refresh()
        #expect(outcome == .failed(.incompatibleMajorVersion(.source, themeVersion: SemanticVersion(major: 2, minor: 0, patch: 0), appMajorVersion: 1)))
        #expect(service.theme.version == SemanticVersion(major: 1, minor: 0, patch: 0))
    }

    @Test("the source is asked for the app's major version")
    func asksForAppMajorVersion() async throws {
        try publish(ThemeFixtures.theme(version: "1.5.0"), major: 1)
        try publish(ThemeFixtures.theme(version: "2.3.0"), major: 2)
        let service = try makeService(appMajorVersion: 2, bundledDefault: ThemeFixtures.data(ThemeFixtures.theme(version: "2.0.0")))
        #expect(await service.refresh() == .applied(SemanticVersion(major: 2, minor: 3, patch: 0)))
    }

    @Test("an invalid theme keeps the current one and lists its errors")
    func invalidTheme() async throws {
        try publish(ThemeFixtures.theme(version: "1.3.0", primary: "#12"))
        let service = try makeService()
        let outcome = await service.refresh()
        guard case .failed(.invalid(.source, let failure)) = outcome else {
            Issue.record("expected an invalid-theme failure, got \(outcome)")
            return
        }
        #expect(failure.errors == [ThemeIssue(path: "colors.primary", problem: .malformedHex("#12", .wrongDigitCount(2)))])
        #expect(service.origin == .bundledDefault)
    }

    @Test("a bundled default that is not valid for the app is refused at init")
    func invalidDefault() {
        #expect(throws: ThemeServiceError.incompatibleMajorVersion(.bundledDefault, themeVersion: SemanticVersion(major: 1, minor: 0, patch: 0), appMajorVersion: 3)) {
            try makeService(appMajorVersion: 3)
        }
    }

    @Test("a good theme is applied, cached as received, and used on the next start")
    func cacheUsedOnNextStart() async throws {
        let published = ThemeFixtures.theme(version: "1.2.0", primary: "#FF0000")
        try publish(published)
        let first = try makeService()
        #expect(await first.start() == .applied(SemanticVersion(major: 1, minor: 2, patch: 0)))
        #expect(first.origin == .source)
        let cacheFile = ThemeCache(directory: cacheDirectory).fileURL(forMajorVersion: 1)
        #expect(try Data(contentsOf: cacheFile) == ThemeFixtures.data(published))

        // Next launch, offline: the cached theme, not the default.
        try FileManager.default.removeItem(at: sourceDirectory.appendingPathComponent("v1.json"))
        let second = try makeService()
        let outcome = await second.start()
        #expect(second.origin == .cache)
        #expect(second.theme.color("primary") == RGBAColor(red: 1, green: 0, blue: 0))
        #expect(outcome == .failed(.sourceFailed(.notFound(location: sourceDirectory.appendingPathComponent("v1.json").path))))
    }

    @Test("a corrupt cache falls back to the default and says why")
    func corruptCache() async throws {
        try ThemeCache(directory: cacheDirectory).store(ThemeFixtures.data("{"), majorVersion: 1)
        let service = try makeService()
        let outcome = await service.loadCachedTheme()
        #expect(outcome == .failed(.undecodable(.cache, .malformedJSON(line: 1, column: 2, reason: "expected a key in double quotes"))))
        #expect(service.origin == .bundledDefault)
    }

    @Test("the cache is replaced atomically: a new file renamed over the old, no leftovers")
    func atomicCacheWrite() throws {
        let cache = ThemeCache(directory: cacheDirectory.appendingPathComponent("nested"))
        let old = ThemeFixtures.data(ThemeFixtures.theme(version: "1.0.0"))
        let new = ThemeFixtures.data(ThemeFixtures.theme(version: "1.1.0"))
        try cache.store(old, majorVersion: 1)
        let url = cache.fileURL(forMajorVersion: 1)
        let oldInode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int

        // A reader that opened the old file keeps seeing the old bytes, complete.
        let reader = try FileHandle(forReadingFrom: url)
        defer { try? reader.close() }
        try cache.store(new, majorVersion: 1)

        #expect(try reader.readToEnd() == old)
        #expect(try cache.load(majorVersion: 1) == new)
        let newInode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        #expect(oldInode != nil && oldInode != newInode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path) == ["theme-v1.json"])
    }

    @Test("applying themes replaces the one stylesheet, never stacks another")
    func replacesNotStacks() async throws {
        let service = try makeService()
        let page = RecordingStyleSheetTarget()
        await service.attach(page)
        #expect(await page.styleSheets.keys == ["statehub-theme"])
        #expect(await page.styleSheets["statehub-theme"] == service.styleSheet)

        try publish(ThemeFixtures.theme(version: "1.2.0"))
        #expect(await service.refresh() == .applied(SemanticVersion(major: 1, minor: 2, patch: 0)))
        try publish(ThemeFixtures.theme(version: "1.3.0", primary: "#00FF00"))
        #expect(await service.refresh() == .applied(SemanticVersion(major: 1, minor: 3, patch: 0)))

        let calls = await page.calls
        #expect(calls.count == 3)
        #expect(calls.allSatisfy { $0.id == ThemeCSS.styleSheetID })
        #expect(await page.styleSheets.count == 1)
        #expect(await page.styleSheets["statehub-theme"] == service.styleSheet)
        #expect(service.styleSheet.contains("--color-primary: #00ff00;"))

        // The same theme again changes nothing and pushes nothing.
        #expect(await service.refresh() == .unchanged)
        #expect(await page.calls.count == 3)
    }

    @Test("every attached target gets every change; a detached one stops receiving")
    func pushesToAllTargets() async throws {
        let service = try makeService()
        let first = RecordingStyleSheetTarget()
        let second = RecordingStyleSheetTarget()
        await service.attach(first)
        let secondID = await service.attach(second)
        try publish(ThemeFixtures.theme(version: "1.2.0"))
        await service.refresh()
        service.detach(secondID)
        try publish(ThemeFixtures.theme(version: "1.4.0"))
        await service.refresh()
        #expect(await first.calls.map(\.css) == [ThemeCSS.stylesheet(for: try ThemeLoader.load(DefaultTheme.data)),
                                                ThemeCSS.stylesheet(for: try ThemeLoader.load(ThemeFixtures.data(ThemeFixtures.theme(version: "1.2.0")))),
                                                service.styleSheet])
        #expect(await second.calls.count == 2)
    }

    @Test("a target that refuses the stylesheet is reported; the theme still applies")
    func injectionFailure() async throws {
        let service = try makeService()
        let broken = RecordingStyleSheetTarget(failing: true)
        let id = await service.attach(broken)
        #expect(service.lastFailure == .injectionFailed(id, reason: "page is gone"))
        try publish(ThemeFixtures.theme(version: "1.2.0"))
        #expect(await service.refresh() == .applied(SemanticVersion(major: 1, minor: 2, patch: 0)))
        #expect(service.theme.version == SemanticVersion(major: 1, minor: 2, patch: 0))
        #expect(service.lastFailure == .injectionFailed(id, reason: "page is gone"))
    }

    @Test("observers are told when the theme changes, and not when a fetch fails")
    func observation() async throws {
        let service = try makeService()
        let changes = ChangeCounter()
        func track() {
            withObservationTracking {
                _ = service.theme
            } onChange: {
                MainActor.assumeIsolated { changes.count += 1 }
            }
        }

        track()
        await service.refresh() // nothing published: fails
        #expect(changes.count == 0)

        try publish(ThemeFixtures.theme(version: "1.2.0"))
        await service.refresh()
        #expect(changes.count == 1)

        track()
        try publish(ThemeFixtures.theme(version: "1.3.0"))
        await service.refresh()
        #expect(changes.count == 2)
        #expect(service.theme.version == SemanticVersion(major: 1, minor: 3, patch: 0))
    }

    @Test("the bundled default is a valid theme with dark colours")
    func bundledDefaultIsValid() throws {
        let report = ThemeCheck.run(data: DefaultTheme.data, fileName: "default")
        #expect(report.issues.isEmpty)
        #expect(report.theme?.darkOverriddenColorNames.count == 6)
    }
}
