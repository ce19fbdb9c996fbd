import StateHubJSON

/// The contract's shape, checked over a parsed document: every missing required field and
/// every value of the wrong JSON type in one walk, where decoding with `Codable` stops at
/// the first.
///
/// The walk also patches each place it reports (a wrong optional value removed, a missing or
/// wrong required one given a placeholder, a wrong container emptied), so the patched
/// document decodes and `ThemeValidator` can report the rest of the problems in the same
/// pass. What the validator then says about a patched place, or about references to names a
/// wrong container no longer holds, is a consequence of a reported problem and is dropped
/// (`isConsequence`).
///
/// The shape (docs/style-tokens.md): `metadata` {`version` string, `description` string?},
/// `colors` {name: string}?, `fonts` {name: {`name` string, `size` number}}?, `components`
/// {name: {`backgroundColor`, `textColor`, `font` strings?, `cornerRadius` number?,
/// `shadow` {`color` string, `opacity`, `radius` numbers, `x`, `y` numbers?}?}}?, `dark`
/// {`colors` {name: string}?}?. An optional member may be `null`. Unknown keys are kept
/// (the validator warns about them). The walk follows the shape, not the document, so its
/// depth is the contract's (five levels), whatever a file nests.
/// - Complexity: O(number of members the contract names).
struct ThemeSchema {
    /// Missing fields and wrong types, each with the path where it sits (for a missing field,
    /// the field's own path) and the place to show its line and column at.
    private(set) var issues: [(issue: ThemeIssue, anchor: String)] = []
    /// The document with every reported place patched; `nil` when the document is not an
    /// object (nothing of the contract can be read).
    private(set) var patched: JSONValue?
    /// Places whose later issues are consequences of a reported one.
    private var patchedPaths: [ThemeJSONPath] = []
    private var lostColors = false
    private var lostFonts = false

    init(checking document: JSONValue) {
        guard case .object(var root) = document else {
            report(.root, expected: "object", found: document)
            return
        }
        let metadataPath = ThemeJSONPath("metadata")
        switch root["metadata"] {
        case .object(var metadata)?:
            require(&metadata, "version", .string, at: metadataPath, placeholder: "0.0.0")
            optional(&metadata, "description", .string, at: metadataPath)
            root["metadata"] = .object(metadata)
        case let other:
            if let other { report(metadataPath, expected: "object", found: other) } else { reportMissing(metadataPath, in: .root) }
            root["metadata"] = ["version": "0.0.0"]
            patchedPaths.append(metadataPath)
        }
        if !table(&root, "colors", at: .root, entry: { schema, value, path in schema.color(&value, at: path) }) { lostColors = true }
        if !table(&root, "fonts", at: .root, entry: { schema, value, path in schema.font(&value, at: path) }) { lostFonts = true }
        _ = table(&root, "components", at: .root, entry: { schema, value, path in schema.component(&value, at: path) })
        let darkPath = ThemeJSONPath("dark")
        switch root["dark"] {
        case .object(var dark)?:
            _ = table(&dark, "colors", at: darkPath, entry: { schema, value, path in schema.color(&value, at: path) })
            root["dark"] = .object(dark)
        case .null?, nil:
            break
        case let other?:
            report(darkPath, expected: "object", found: other)
            root["dark"] = nil
            patchedPaths.append(darkPath)
        }
        patched = .object(root)
    }

    /// Whether `issue`, found by the validator in the patched document, only repeats a
    /// reported problem: it sits at or under a patched place, or names a colour or font
    /// that a wrong `colors` / `fonts` took away.
    func isConsequence(_ issue: ThemeIssue) -> Bool {
        if patchedPaths.contains(where: { issue.path == $0.description || issue.path.hasPrefix($0.description + ".") || issue.path.hasPrefix($0.description + "[") }) {
            return true
        }
        switch issue.problem {
        case .unknownColorReference, .unknownDarkOverride: return lostColors
        case .unknownFontReference: return lostFonts
        default: return false
        }
    }

    // MARK: Shapes

    private mutating func color(_ value: inout JSONValue, at path: ThemeJSONPath) {
        if !Scalar.string.fits(value) { replace(&value, at: path, expected: "string", with: "#000000") }
    }

    private mutating func font(_ value: inout JSONValue, at path: ThemeJSONPath) {
        guard case .object(var font) = value else {
            replace(&value, at: path, expected: "object", with: ["name": "placeholder", "size": 1])
            return
        }
        require(&font, "name", .string, at: path, placeholder: "placeholder")
        require(&font, "size", .number, at: path, placeholder: 1)
        value = .object(font)
    }

    private mutating func component(_ value: inout JSONValue, at path: ThemeJSONPath) {
        guard case .object(var component) = value else {
            replace(&value, at: path, expected: "object", with: [:])
            return
        }
        optional(&component, "backgroundColor", .string, at: path)
        optional(&component, "textColor", .string, at: path)
        optional(&component, "cornerRadius", .number, at: path)
        optional(&component, "font", .string, at: path)
        let shadowPath = path.appending("shadow")
        switch component["shadow"] {
        case .object(var shadow)?:
            require(&shadow, "color", .string, at: shadowPath, placeholder: "#000000")
            require(&shadow, "opacity", .number, at: shadowPath, placeholder: 0)
            require(&shadow, "radius", .number, at: shadowPath, placeholder: 0)
            optional(&shadow, "x", .number, at: shadowPath)
            optional(&shadow, "y", .number, at: shadowPath)
            component["shadow"] = .object(shadow)
        case .null?, nil:
            break
        case let other?:
            report(shadowPath, expected: "object", found: other)
            component["shadow"] = nil
            patchedPaths.append(shadowPath)
        }
        value = .object(component)
    }

    // MARK: Members

    /// The scalar types the contract's members have.
    private enum Scalar {
        case string, number
        func fits(_ value: JSONValue) -> Bool {
            switch (self, value) {
            case (.string, .string), (.number, .number): true
            default: false
            }
        }
        var name: String { self == .string ? "string" : "number" }
    }

    /// A required member: reported and given `placeholder` when absent or of the wrong type.
    private mutating func require(_ object: inout JSONValue.ObjectMembers, _ key: String, _ type: Scalar,
                                  at parent: ThemeJSONPath, placeholder: JSONValue) {
        let path = parent.appending(key)
        if let value = object[key] {
            if type.fits(value) { return }
            report(path, expected: type.name, found: value)
        } else {
            reportMissing(path, in: parent)
        }
        object[key] = placeholder
        patchedPaths.append(path)
    }

    /// An optional member: absent and `null` are fine; a wrong type is reported and removed.
    private mutating func optional(_ object: inout JSONValue.ObjectMembers, _ key: String, _ type: Scalar,
                                   at parent: ThemeJSONPath) {
        guard let value = object[key], value != .null, !type.fits(value) else { return }
        let path = parent.appending(key)
        report(path, expected: type.name, found: value)
        object[key] = nil
        patchedPaths.append(path)
    }

    /// An optional object of named entries (`colors`, `fonts`, `components`), each entry
    /// checked by `entry`. Returns false when the member is not an object (it is emptied).
    private mutating func table(_ object: inout JSONValue.ObjectMembers, _ key: String, at parent: ThemeJSONPath,
                                entry: (inout ThemeSchema, inout JSONValue, ThemeJSONPath) -> Void) -> Bool {
        let path = parent.appending(key)
        switch object[key] {
        case .object(var entries)?:
            for name in entries.keys {
                guard var value = entries[name] else { continue }
                entry(&self, &value, path.appending(name.string))
                entries[name] = value
            }
            object[key] = .object(entries)
            return true
        case .null?, nil:
            return true
        case let other?:
            report(path, expected: "object", found: other)
            object[key] = .object([:])
            patchedPaths.append(path)
            return false
        }
    }

    private mutating func replace(_ value: inout JSONValue, at path: ThemeJSONPath, expected: String, with placeholder: JSONValue) {
        report(path, expected: expected, found: value)
        value = placeholder
        patchedPaths.append(path)
    }

    private mutating func report(_ path: ThemeJSONPath, expected: String, found: JSONValue) {
        let error = ThemeDecodingError.wrongType(path: path.description, expected: expected, found: found.themeTypeName)
        issues.append((ThemeIssue(path, .undecodable(error)), path.description))
    }

    private mutating func reportMissing(_ path: ThemeJSONPath, in parent: ThemeJSONPath) {
        issues.append((ThemeIssue(path, .undecodable(.missingField(path: path.description))), parent.description))
    }
}
