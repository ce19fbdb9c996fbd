/// What one attempt to take a newer theme did.
public enum ThemeRefreshOutcome: Sendable, Hashable {
    /// A different theme was applied and pushed to every target.
    case applied(SemanticVersion)
    /// The theme offered is the one already applied; nothing changed.
    case unchanged
    /// Nothing was applied; `ThemeService.lastFailure` holds the same error.
    case failed(ThemeServiceError)
}
