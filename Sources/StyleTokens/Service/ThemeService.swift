import Foundation
import Observation

/// Holds the theme the app shows and keeps every attached page in step with it.
///
/// Order of themes: the bundled default (at init), then the cached last good theme
/// (`loadCachedTheme()`), then the current one from the `ThemeSource` (`refresh()`); `start()`
/// does the last two. Every candidate is decoded, validated and checked against the app's
/// major version; one that fails leaves the current theme in place and sets `lastFailure`.
/// An accepted theme from the source is cached atomically before `refresh()` returns.
///
/// Observable (Observation framework): SwiftUI views reading `theme` or `styleSheet` update
/// when a new theme is applied. Main-actor isolated, like the views that read it.
///
/// Injection: every change replaces the stylesheet `ThemeCSS.styleSheetID` in every attached
/// target; pushes are delivered in order (a later theme never lands before an earlier one),
/// concurrently across targets.
@MainActor
@Observable
public final class ThemeService {
    /// The theme in effect; always valid and compatible with `appMajorVersion`.
    public private(set) var theme: ResolvedTheme
    /// `ThemeCSS.stylesheet(for: theme)`.
    public private(set) var styleSheet: String
    /// Where `theme` came from.
    public private(set) var origin: ThemeOrigin
    /// Why the most recent attempt to load, cache or push a theme failed; nil after a success.
    public private(set) var lastFailure: ThemeServiceError?

    /// The app's major version: only themes with this major version are applied.
    public let appMajorVersion: Int

    @ObservationIgnored private let source: (any ThemeSource)?
    @ObservationIgnored private let cache: ThemeCache?
    @ObservationIgnored private var targets: [StyleSheetTargetID: any StyleSheetTarget] = [:]
    @ObservationIgnored private var nextTargetNumber = 0
    @ObservationIgnored private var lastDelivery: Task<Void, Never>?

    /// Starts from `bundledDefault` (by default `DefaultTheme.data`, major version 1).
    /// Throws if that default is not a valid theme for `appMajorVersion`: that is a build
    /// mistake the app must not ship with.
    public init(appMajorVersion: Int, source: (any ThemeSource)? = nil, cache: ThemeCache? = nil,
                bundledDefault: Data = DefaultTheme.data) throws(ThemeServiceError) {
        self.appMajorVersion = appMajorVersion
        self.source = source
        self.cache = cache
        let initial = try Self.accept(bundledDefault, from: .bundledDefault, appMajorVersion: appMajorVersion)
        self.theme = initial
        self.styleSheet = ThemeCSS.stylesheet(for: initial)
        self.origin = .bundledDefault
    }

    /// Loads the cached theme, then asks the source for a newer one.
    @discardableResult
    public func start() async -> ThemeRefreshOutcome {
        _ = await loadCachedTheme()
        return await refresh()
    }

    /// Applies the cached theme for `appMajorVersion` if there is a good one.
    /// No cache or nothing cached is not a failure (`.unchanged`).
    @discardableResult
    public func loadCachedTheme() async -> ThemeRefreshOutcome {
        guard let cache else { return .unchanged }
        let data: Data
        do {
            guard let cached = try cache.load(majorVersion: appMajorVersion) else { return .unchanged }
            data = cached
        } catch {
            return fail(.cacheFailed(error))
        }
        return await offer(data, from: .cache)
    }

    /// Fetches the theme for `appMajorVersion` from the source and applies it if it is good
    /// and differs from the current one; then caches it and pushes it to every target.
    @discardableResult
    public func refresh() async -> ThemeRefreshOutcome {
        guard let source else { return .unchanged }
        let data: Data
        do {
            data = try await source.fetchTheme(forMajorVersion: appMajorVersion)
        } catch {
            return fail(.sourceFailed(error))
        }
        return await offer(data, from: .source)
    }

    /// Applies `data` as if it came from `origin`: the single door for every theme.
    @discardableResult
    public func offer(_ data: Data, from origin: ThemeOrigin) async -> ThemeRefreshOutcome {
        let candidate: ResolvedTheme
        do {
            candidate = try Self.accept(data, from: origin, appMajorVersion: appMajorVersion)
        } catch {
            return fail(error)
        }
        guard candidate != theme else {
            lastFailure = nil
            return .unchanged
        }
        theme = candidate
        styleSheet = ThemeCSS.stylesheet(for: candidate)
        self.origin = origin
        lastFailure = nil
        if origin == .source, let cache {
            do {
                try cache.store(data, majorVersion: appMajorVersion)
            } catch {
                lastFailure = .cacheFailed(error)
            }
        }
        await deliver(styleSheet, to: targets)
        return .applied(candidate.version)
    }

    /// Attaches `target` and gives it the current stylesheet at once.
    /// Returns an id for `detach(_:)`.
    @discardableResult
    public func attach(_ target: any StyleSheetTarget) async -> StyleSheetTargetID {
        let id = StyleSheetTargetID(rawValue: nextTargetNumber)
        nextTargetNumber += 1
        targets[id] = target
        await deliver(styleSheet, to: [id: target])
        return id
    }

    /// Stops pushing to the target; its page keeps the last stylesheet it received.
    public func detach(_ id: StyleSheetTargetID) {
        targets[id] = nil
    }

    /// Ids of the attached targets.
    public var attachedTargets: [StyleSheetTargetID] { targets.keys.sorted { $0.rawValue < $1.rawValue } }

    // MARK: - Private

    private static func accept(_ data: Data, from origin: ThemeOrigin, appMajorVersion: Int) throws(ThemeServiceError) -> ResolvedTheme {
        let candidate: ResolvedTheme
        do {
            candidate = try ThemeLoader.load(data)
        } catch {
            switch error {
            case .undecodable(let decoding): throw .undecodable(origin, decoding)
            case .invalid(let failure): throw .invalid(origin, failure)
            }
        }
        guard candidate.version.major == appMajorVersion else {
            throw .incompatibleMajorVersion(origin, themeVersion: candidate.version, appMajorVersion: appMajorVersion)
        }
        return candidate
    }

    private func fail(_ error: ThemeServiceError) -> ThemeRefreshOutcome {
        lastFailure = error
        return .failed(error)
    }

    /// Chains deliveries so that each waits for the previous one: a target never receives
    /// an older stylesheet after a newer one, even when themes change while a push is slow.
    private func deliver(_ css: String, to recipients: [StyleSheetTargetID: any StyleSheetTarget]) async {
        guard !recipients.isEmpty else { return }
        let previous = lastDelivery
        let delivery = Task {
            await previous?.value
            let failures = await Self.push(css, to: recipients)
            if let first = failures.min(by: { $0.0.rawValue < $1.0.rawValue }) {
                self.lastFailure = .injectionFailed(first.0, reason: first.1)
            }
        }
        lastDelivery = delivery
        await delivery.value
    }

    private nonisolated static func push(_ css: String, to recipients: [StyleSheetTargetID: any StyleSheetTarget]) async -> [(StyleSheetTargetID, String)] {
        await withTaskGroup(of: (StyleSheetTargetID, String)?.self) { group in
            for (id, target) in recipients {
                group.addTask {
                    do {
                        try await target.replaceStyleSheet(id: ThemeCSS.styleSheetID, css: css)
                        return nil
                    } catch {
                        return (id, String(describing: error))
                    }
                }
            }
            var failures: [(StyleSheetTargetID, String)] = []
            for await failure in group {
                if let failure { failures.append(failure) }
            }
            return failures
        }
    }
}
