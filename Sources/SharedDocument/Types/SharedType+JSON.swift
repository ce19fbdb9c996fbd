import StateHubJSON

extension SharedType {
    /// The item holding the element at `index` of the list, and the offset inside it.
    func element(at index: Int) -> (Item, Int)? {
        guard index >= 0, index < length else { return nil }
        var remaining = index
        var node = start
        while let item = node {
            if item.visibleCountable {
                if remaining < item.length { return (item, remaining) }
                remaining -= item.length
            }
            node = item.right
        }
        return nil
    }

    func textString() -> String {
        var bytes: [UInt8] = []
        // `length` counts the visible strings (and embeds, which add nothing here): the UTF-8
        // of ASCII text, the usual case, is as long.
        bytes.reserveCapacity(length)
        // Walked unretained, as an encode does: a strong `item.right` per struct was a
        // retain and a release each, a tenth of reading a document just loaded.
        var node = start.map { Unmanaged.passUnretained($0) }
        while let current = node {
            node = current._withUnsafeGuaranteedRef { item in
                if item.flags & Item.deletedFlag == 0, case .string(let part) = item.content { part.appendUTF8(to: &bytes) }
                return item.rightRef
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Yjs's `toJSON` of this type (an unknown root shows as nothing: `.undefined`).
    func toJSON(depth: Int, subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue {
        guard depth < UpdateDecodingError.maximumNesting else { throw SharedDocumentError(.nestingTooDeep) }
        switch kind {
        case .unknown:
            return .undefined
        case .text, .xmlText:
            return .string(textString())
        case .map, .xmlHook:
            var object = YObject()
            for key in keyOrder {
                guard let item = map[key], !item.deleted else { continue }
                object[key] = try Self.lastValue(of: item, depth: depth + 1, subdocuments: subdocuments)
            }
            return .object(object)
        case .array, .xmlElement, .xmlFragment:
            var values: [YValue] = []
            var node = start
            while let item = node {
                if item.visibleCountable {
                    for offset in 0..<item.length { values.append(try Self.value(of: item, at: offset, depth: depth + 1, subdocuments: subdocuments)) }
                }
                node = item.right
            }
            return .array(values)
        }
    }

    /// A map entry's value: the last element of its item's content.
    static func lastValue(of item: Item, depth: Int, subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue {
        try value(of: item, at: item.length - 1, depth: depth, subdocuments: subdocuments)
    }

    static func value(of item: Item, at offset: Int, depth: Int, subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue {
        switch item.content {
        case .any(let values): return values[offset]
        case .json(let texts): return parseJSON(texts[offset])
        case .binary(let data): return .bytes(data)
        case .string(let units): return .string(units.string(at: offset))
        case .embed(let json): return parseJSON(json)
        case .format: return .undefined
        case .type(let type): return try type.toJSON(depth: depth, subdocuments: subdocuments)
        case .doc(let reference):
            switch subdocuments {
            case .yjs: return .object(YObject())
            case .reference: return reference.jsonValue
            }
        case .deleted: return .undefined
        }
    }

    /// JSON content from old Yjs versions (ref 2) and embeds, read as `JSON.parse` reads it
    /// (StateHubJSON: key order, duplicate keys, at most 512 levels); `"undefined"` is
    /// JavaScript's. Text that does not parse shows as `undefined`.
    static func parseJSON(_ text: String) -> YValue {
        if text == "undefined" { return .undefined }
        guard let value = try? JSONParser().parse(text) else { return .undefined }
        return convert(value)
    }

    /// A parsed JSON value as `JSON.parse` gives it (integers within 2⁵³ as `int`).
    static func value(ofJSON value: JSONValue) -> YValue { convert(value) }

    /// Bounded by the parser's depth cap (512), so the recursion is too.
    private static func convert(_ value: JSONValue) -> YValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number):
            if number == number.rounded(), abs(number) < 9_007_199_254_740_992 { return .int(Int64(number)) }
            return .double(number)
        case .string(let string): return .string(string)
        case .array(let elements): return .array(elements.map(convert))
        case .object(let members):
            var object = YObject()
            for (key, member) in members { object[key.string] = convert(member) }
            return .object(object)
        }
    }
}

extension SharedDocument {
    /// The document as Yjs's `doc.toJSON()` shows it: each named root (roots of unknown kind
    /// left out, as Yjs shows them as `undefined`); sub-documents as `subdocuments` says.
    public func toJSON(subdocuments: SubDocumentJSON = .yjs) throws(SharedDocumentError) -> YValue {
        var object = YObject()
        for name in shareOrder {
            guard let type = share[name], type.kind != .unknown else { continue }
            object[name] = try type.toJSON(depth: 0, subdocuments: subdocuments)
        }
        return .object(object)
    }
}

/// How JSON shows a sub-document (``SubDocumentReference``).
public enum SubDocumentJSON: Sendable {
    /// An empty object, as Yjs's `toJSON` shows a sub-document this replica has not loaded.
    case yjs
    /// Its guid and options (``SubDocumentReference/jsonValue``), as `statehub doc` shows it.
    case reference
}
