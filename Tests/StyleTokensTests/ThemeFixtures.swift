import Foundation
@testable import StyleTokens

/// Theme texts and helpers shared by the tests.
enum ThemeFixtures {
    /// The contract example of the architecture we follow, verbatim (also examples/themes/standard.json).
    static let standardJSON = #"""
    {
      "metadata": {
        "version": "1.1.0",
        "description": "Standard theme with updated primary button style."
      },
      "colors": {
        "primary": "#007AFF",
        "secondary": "#5856D6",
        "background": "#F2F2F7",
        "textPrimary": "#1C1C1E",
        "textSecondary": "#8A8A8E",
        "error": "#FF3B30"
      },
      "fonts": {
        "headline": {
          "name": "HelveticaNeue-Bold",
          "size": 28
        },
        "body": {
          "name": "HelveticaNeue",
          "size": 17
        },
        "caption": {
          "name": "HelveticaNeue-Light",
          "size": 12
        }
      },
      "components": {
        "primaryButton": {
          "backgroundColor": "primary",
          "textColor": "#FFFFFF",
          "cornerRadius": 12.0,
          "font": "body"
        },
        "cardView": {
          "backgroundColor": "#FFFFFF",
          "cornerRadius": 16.0,
          "shadow": {
            "color": "#000000",
            "opacity": 0.1,
            "radius": 8,
            "x": 0,
            "y": 4
          }
        }
      }
    }
    """#

    /// A small theme whose CSS is checked character by character.
    static let smallJSON = #"""
    {
      "metadata": { "version": "2.0.1" },
      "colors": { "primary": "#007AFF", "surface": "#FFF", "shadowTint": "#00000080" },
      "fonts": { "body": { "name": "Helvetica Neue", "size": 17 } },
      "components": {
        "primaryButton": { "backgroundColor": "primary", "textColor": "#FFFFFF", "cornerRadius": 12, "font": "body" },
        "cardView": {
          "backgroundColor": "surface",
          "cornerRadius": 16.5,
          "shadow": { "color": "shadowTint", "opacity": 0.25, "radius": 8, "y": 4 }
        }
      },
      "dark": { "colors": { "primary": "#0A84FF", "surface": "#1C1C1E" } }
    }
    """#

    /// A minimal valid theme of the given version, with `primary` set to `primary`.
    static func theme(version: String, primary: String = "#007AFF") -> String {
        #"{"metadata":{"version":"\#(version)"},"colors":{"primary":"\#(primary)"},"components":{"button":{"backgroundColor":"primary"}}}"#
    }

    static func data(_ text: String) -> Data { Data(text.utf8) }

    /// The repository root, found from this file's path (Tests/StyleTokensTests/…).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// A fresh empty directory under the system temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("StyleTokensTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
