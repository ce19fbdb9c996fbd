import MicroAppAssets
import Testing

/// The asset path rules (docs/server.md, "Names and values" and "Assets") the server and
/// Delivery share.
@Suite(.tags(.unit)) struct AssetPathTests {
    @Test func validPathsAreKeptAsGivenAndFolded() throws {
        let path = try AssetPath("img/Logo-2x_v1.PNG")
        #expect(path.value == "img/Logo-2x_v1.PNG")
        #expect(path.folded == "img/logo-2x_v1.png")
        #expect(path.fileExtension == "png")
        #expect(try AssetPath("a").segments == ["a"])
        #expect(try AssetPath(String(repeating: "a", count: 128)).value.count == 128)
        #expect(try AssetPath(Array(repeating: "a", count: 16).joined(separator: "/")).segments.count == 16)
    }

    @Test func pathsBreakingARuleAreRefusedWithTheRule() {
        let refused: [(String, String)] = [
            ("", "empty"), ("/etc/passwd", "relative"), ("../x.png", "dot"), ("img/../../x", "dot"), ("./x", "dot"),
            ("img/.hidden", "dot"), ("..", "dot"), ("img//x.png", "empty segment"), ("img/", "empty segment"),
            ("img\\x.png", "character"), ("img/x y.png", "character"), ("img/%2e%2e", "character"), ("img/é.png", "character"),
            ("C:x", "character"), ("a\u{0}b", "character"),
            (String(repeating: "a", count: 129), "segment is longer"),
            (Array(repeating: "a", count: 17).joined(separator: "/"), "more than 16"),
            (Array(repeating: String(repeating: "a", count: 100), count: 3).joined(separator: "/"), "longer than 255"),
            ("bundle.js", "own file"), ("Style.CSS", "own file"),
        ]
        for (text, reason) in refused {
            do {
                _ = try AssetPath(text)
                Issue.record("\(text.debugDescription) was accepted")
            } catch {
                #expect(error.description.contains(reason), "\(text.debugDescription): \(error)")
            }
        }
        // Reserved names only at the top: a bundle.js inside a folder is an ordinary asset.
        #expect((try? AssetPath("lib/bundle.js")) != nil)
    }

    @Test func collisionsIgnoreCaseAndCatchFilesThatAreFolders() throws {
        let paths = try ["img/logo.png", "img/Logo.png", "img/logo.png", "IMG", "img/logo.png/x", "fonts/a.woff2", "Fonts/b.woff2", "x"]
            .map { try AssetPath($0) }
        let collisions = AssetPath.collisions(in: paths)
        #expect(collisions.map(\.index) == [1, 2, 3, 4])
        #expect(collisions.map(\.earlier) == [0, 0, 0, 0])
        #expect(collisions[0].description.contains("differs only in case"))
        #expect(collisions[1].description.contains("listed twice"))
        #expect(collisions[2].description.contains("is a folder of"))
        #expect(collisions[3].description.contains("which is the file"))
        #expect(AssetPath.collisions(in: try ["a/b", "a/c", "A/d/e"].map { try AssetPath($0) }).isEmpty)
    }

    @Test func contentTypesComeFromAnAllowlistNeverHTML() throws {
        let expected: [String: String] = [
            "a.png": "image/png", "a.JPG": "image/jpeg", "f.woff2": "font/woff2", "d.json": "application/json",
            "s.js": "text/javascript; charset=utf-8", "i.svg": "image/svg+xml", "page.html": "application/octet-stream",
            "page.HTM": "application/octet-stream", "noext": "application/octet-stream", "x.exe": "application/octet-stream",
        ]
        for (path, type) in expected { #expect(AssetContentType.of(try AssetPath(path)) == type, "\(path)") }
    }
}
