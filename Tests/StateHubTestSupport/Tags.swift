import Testing

/// What a suite needs to run, one tag on every top-level suite (docs/testing-stages.md).
/// `bash scripts/test.sh --quick` runs the `.unit` suites alone.
extension Tag {
    /// Pure logic: no engine, no server, no subprocess. Time comes from an injected clock.
    @Tag package static var unit: Self
    /// A real JavaScriptCore engine (a context, a hosted page, a pool), in this process.
    @Tag package static var engine: Self
    /// PostgreSQL, node, python, a real server or socket, a child process or an exit test.
    @Tag package static var integration: Self
    /// A real browser (headless Chromium). The Chromium checks are scripts today
    /// (`scripts/test-*.py`, stages of scripts/test.sh), so no Swift suite carries it yet.
    @Tag package static var browser: Self
}
