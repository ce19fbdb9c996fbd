import Foundation
import StateHubJSON

/// The members an admin body may hold (docs/server.md, "Admin API"): a member it does not know
/// (`"stabel"` for `"stable"`) is refused with `400` naming it and its place, and so is a key
/// written twice, instead of being ignored or keeping one of the two values silently. Types and required members are the decoder's to check.
indirect enum AdminBodyShape: Sendable {
    /// An object with these members, each of this shape.
    case object([String: AdminBodyShape])
    /// An array whose elements have this shape.
    case array(AdminBodyShape)
    /// An object whose keys are data (explicit users: id → version); its values are leaves. Its
    /// keys are stored in Unicode NFC, so two keys with one NFC form (`"\u00e9"` and `"e\u0301"`)
    /// are refused, naming both, instead of one silently replacing the other.
    case map
    /// A string, number, boolean or null.
    case leaf

    /// The first member of `value` this shape does not know, or the first two keys of a ``map``
    /// that are one in NFC, as a `400` naming it; nil when there is none. Iterative (the parser
    /// caps depth anyway).
    func refusal(in value: JSONValue) -> ServerError? {
        var pending: [(AdminBodyShape, JSONValue, String)] = [(self, value, "")]
        while let (shape, value, path) = pending.popLast() {
            switch (shape, value) {
            case (.object(let members), .object(let object)):
                for (key, member) in object {
                    let name = key.string
                    let at = path.isEmpty ? name : "\(path).\(name)"
                    guard let inner = members[name] else {
                        let known = members.keys.sorted().joined(separator: ", ")
                        return .badRequest("the body has an unknown member \(JSONValue.string(name).jsonText())"
                                           + (path.isEmpty ? "" : " in \(path)") + " (known: \(known))")
                    }
                    pending.append((inner, member, at))
                }
            case (.map, .object(let object)):
                var seen: [String: String] = [:]
                for key in object.keys {
                    let normalized = key.string.precomposedStringWithCanonicalMapping
                    if let first = seen[normalized] {
                        return .badRequest("\(path): the keys \(Self.spelled(first)) and \(Self.spelled(key.string)) are one key"
                                           + " in Unicode NFC, the form keys are stored in")
                    }
                    seen[normalized] = key.string
                }
            case (.array(let element), .array(let elements)):
                for (index, item) in elements.enumerated() { pending.append((element, item, "\(path)[\(index)]")) }
            default:
                break  // a wrong type is the decoder's to name
            }
        }
        return nil
    }

    /// `key` as JSON text, then its scalars (`"é" (U+0065 U+0301)`), so two keys that print
    /// alike read apart.
    private static func spelled(_ key: String) -> String {
        let scalars = key.unicodeScalars.prefix(16).map(AdminLabel.codePoint)
        return JSONValue.string(String(key.prefix(32))).jsonText() + " (" + scalars.joined(separator: " ") + ")"
    }
}

/// An admin body with its ``AdminBodyShape``.
protocol AdminBody: Decodable {
    static var shape: AdminBodyShape { get }
}

extension StateHubServer.VersionUpload: AdminBody {
    static let shape = AdminBodyShape.object([
        "bundle": .leaf, "stylesheet": .leaf, "minNativeVersion": .leaf,
        "assets": .array(.object(["path": .leaf, "data": .leaf])),
        "signature": .object(["keyId": .leaf, "value": .leaf]),
    ])
}

extension ReleaseSpec: AdminBody {
    static let shape = AdminBodyShape.object([
        "stable": .leaf, "arms": .array(.object(["version": .leaf, "percent": .leaf, "label": .leaf])), "users": .map,
    ])
}

extension StateHubServer.PinBody: AdminBody {
    static let shape = AdminBodyShape.object(["version": .leaf])
}

extension StateHubServer.TokenBody: AdminBody {
    static let shape = AdminBodyShape.object(["label": .leaf])
}
