import CustomDump
import JSEngine

/// Dumps a `JSONValue` as the JSON it is, so that `expectNoDifference` shows the path that
/// differs: objects as their members (in order), arrays as lists, scalars as Swift values.
extension JSONValue: CustomDumpRepresentable {
    public var customDumpValue: Any {
        switch self {
        case .null: return JSONNull()
        case .bool(let value): return value
        case .number(let value): return value
        case .string(let value): return value
        case .array(let elements): return elements
        case .object(let members): return JSONObject(members: members)
        }
    }
}

/// `null`, dumped as such.
struct JSONNull: CustomDumpStringConvertible {
    var customDumpDescription: String { "null" }
}

/// An object's members, dumped as labelled children in the object's own order.
struct JSONObject: CustomDumpReflectable {
    let members: JSONValue.ObjectMembers
    var customDumpMirror: Mirror {
        Mirror(self, children: members.map { (label: $0.key.string as String?, value: $0.value as Any) }, displayStyle: .struct)
    }
}
