import StyleTokens

extension WebViewPage: StyleSheetTarget {
    /// Puts `css` into the document's `<style id=…>` (made on first use), returns when the
    /// document has it, and keeps it: every document the view loads after this one — a
    /// ``reload()``, a navigation, a reload the page makes itself — gets it again when it has
    /// finished loading, before ``load()`` or ``reload()`` returns.
    ///
    /// A `<style>` written through the bridge (`BridgePageStyleSheet`, page-shim.js) belongs to
    /// the document it was written into and goes with it. Attach the page itself to a
    /// `ThemeService` (`service.attach(page)`) and a reload keeps the theme (docs/webview.md,
    /// "The theme"). The CSS travels as an argument, never pasted into script source.
    ///
    /// - Throws: ``WebViewError/pageGone(pageID:reason:)``;
    ///   ``WebViewError/scriptFailed(pageID:message:)`` when the document cannot take it.
    public func replaceStyleSheet(id: String, css: String) async throws {
        try await handle.replaceStyleSheet(id: id, css: css)
    }
}
