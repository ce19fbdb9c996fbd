import Foundation

/// The theme compiled into the module: what `ThemeService` shows before any cached or
/// fetched theme, and keeps when both fail. It is the standard contract example plus dark
/// colours, for app major version 1. An app on another major version passes its own default.
public enum DefaultTheme {
    /// The default theme as JSON text.
    public static let json = #"""
    {
      "metadata": {
        "version": "1.0.0",
        "description": "Bundled default theme: shown until a cached or fetched theme replaces it."
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
        "headline": { "name": "HelveticaNeue-Bold", "size": 28 },
        "body": { "name": "HelveticaNeue", "size": 17 },
        "caption": { "name": "HelveticaNeue-Light", "size": 12 }
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
          "shadow": { "color": "#000000", "opacity": 0.1, "radius": 8, "x": 0, "y": 4 }
        }
      },
      "dark": {
        "colors": {
          "primary": "#0A84FF",
          "secondary": "#5E5CE6",
          "background": "#000000",
          "textPrimary": "#FFFFFF",
          "textSecondary": "#8D8D93",
          "error": "#FF453A"
        }
      }
    }
    """#

    /// `json` as UTF-8 bytes.
    public static var data: Data { Data(json.utf8) }
}
