import StateHubJSON

extension JSONValue {
    /// A short name of the JSON type, for error messages ("string", "number", …).
    var themeTypeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
