import JSEngine

/// The native header of a page: its title rule and its right items.
///
/// Title rule (B.4): the header shows ``pinnedTitle`` when one is set (`configNative`
/// `title`), else the page's ``documentTitle``. Unpinning goes back to following the document.
/// Every shell applies this same rule; a SwiftUI shell keeps one `ShellHeader` per page.
public struct ShellHeader: Sendable, Hashable {
    /// The page's last `document.title`.
    public var documentTitle: String?
    /// A title set by `configNative`, which wins over the document's.
    public var pinnedTitle: String?
    /// The right items, in order.
    public var rightItems: [ShellHeaderItem]

    public init(documentTitle: String? = nil, pinnedTitle: String? = nil, rightItems: [ShellHeaderItem] = []) {
        self.documentTitle = documentTitle
        self.pinnedTitle = pinnedTitle
        self.rightItems = rightItems
    }

    /// What the header shows. O(1).
    public var title: String? { pinnedTitle ?? documentTitle }

    /// `{"title":…,"pinned":bool,"rightItems":[…]}`.
    public var jsonValue: JSONValue {
        .object(["title": title.map(JSONValue.string) ?? .null, "pinned": .bool(pinnedTitle != nil),
                 "rightItems": .array(rightItems.map(\.jsonValue))])
    }
}
