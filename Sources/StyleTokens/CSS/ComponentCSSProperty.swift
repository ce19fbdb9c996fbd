/// The custom properties a component can produce, with their stable suffixes.
/// A component only produces the properties for fields it sets.
public enum ComponentCSSProperty: String, Sendable, CaseIterable {
    case backgroundColor = "background-color"
    case textColor = "text-color"
    case cornerRadius = "corner-radius"
    case fontFamily = "font-family"
    case fontSize = "font-size"
    case shadowColor = "shadow-color"
    case shadowOpacity = "shadow-opacity"
    case shadowRadius = "shadow-radius"
    case shadowX = "shadow-x"
    case shadowY = "shadow-y"
}
