import JSEngine

extension JSONValue {
    /// Indented JSON text for people: two spaces a level, keys in the value's own order;
    /// StateHubJSON's writer, which walks any depth without recursion.
    func prettyText() -> String { jsonText(indentedBy: "  ") }
}
