/// Something that holds one replaceable stylesheet per id: a page in the engine (through the
/// capability bridge) or a web view.
///
/// Contract for implementers: after `replaceStyleSheet(id:css:)` returns, the page has exactly
/// one stylesheet with that `id`, whose text is `css`; calling it again with the same id replaces
/// that text and never adds a second sheet. Calls for one target arrive in order, one at a time.
public protocol StyleSheetTarget: Sendable {
    /// Puts `css` into the stylesheet identified by `id`, creating it on first use and
    /// replacing its text afterwards.
    func replaceStyleSheet(id: String, css: String) async throws
}
