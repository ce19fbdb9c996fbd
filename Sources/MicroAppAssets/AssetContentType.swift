/// The `Content-Type` an asset is served with, from its extension through an allowlist
/// (docs/server.md, "Assets"): never from the bytes, never `text/html`; anything not listed is
/// `application/octet-stream`.
public enum AssetContentType {
    public static let fallback = "application/octet-stream"

    static let byExtension: [String: String] = [
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "json": "application/json", "map": "application/json",
        "txt": "text/plain; charset=utf-8",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "svg": "image/svg+xml", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm",
        "mp3": "audio/mpeg", "mp4": "video/mp4", "webm": "video/webm",
    ]

    /// The content type of `path`.
    public static func of(_ path: AssetPath) -> String { byExtension[path.fileExtension] ?? fallback }
}
