import Foundation

/// A micro-app version on disk, ready to load.
public struct DeliveredApp: Sendable, Hashable {
    public var app: String
    public var version: String
    /// `<root>/<app>/<version>/bundle.js`.
    public var bundleFile: URL
    /// `<root>/<app>/<version>/style.css`, when the version has one.
    public var stylesheetFile: URL?
    /// `<root>/<app>/<version>/`: the bundle's folder, where relative asset URLs resolve.
    public var folder: URL
    /// Each asset's file by its path (`"img/logo.png"` → `<folder>/img/logo.png`).
    public var assetFiles: [String: URL]
    public var manifest: Manifest
    public var status: DeliveryStatus
}
