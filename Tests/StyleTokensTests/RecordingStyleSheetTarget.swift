@testable import StyleTokens

/// A stand-in page for injection tests: keeps one stylesheet per id (as a page with one
/// `<style id=…>` per id would) and records every call in order.
actor RecordingStyleSheetTarget: StyleSheetTarget {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "page is gone" }
    }

    /// Stylesheets by id, as the page would hold them.
    private(set) var styleSheets = KeyedList<String>()
    /// Every call, in arrival order.
    private(set) var calls: [(id: String, css: String)] = []
    private let failing: Bool

    init(failing: Bool = false) { self.failing = failing }

    func replaceStyleSheet(id: String, css: String) async throws {
        calls.append((id, css))
        if failing { throw Failure() }
        styleSheets[id] = css
    }
}

/// Records main-actor observation callbacks.
@MainActor
final class ChangeCounter {
    var count = 0
}
