import StyleTokens

/// A page reached through the capability bridge, as a place for the theme's stylesheet.
///
/// Each `replaceStyleSheet(id:css:)` goes to the page's one `<style id=…>` through
/// `BridgeHost.replaceStyleSheet(id:css:onPage:)` (page-shim.js in an engine, the page's
/// own DOM in a web view) and returns when the page has acknowledged it, so a theme change
/// never stacks a second `<style>`. The CSS travels as a JSON string argument, never pasted
/// into script source.
public struct BridgePageStyleSheet: StyleSheetTarget {
    public let host: BridgeHost
    public let pageID: String

    public init(host: BridgeHost, pageID: String) {
        self.host = host
        self.pageID = pageID
    }

    public func replaceStyleSheet(id: String, css: String) async throws {
        try await host.replaceStyleSheet(id: id, css: css, onPage: pageID)
    }
}
