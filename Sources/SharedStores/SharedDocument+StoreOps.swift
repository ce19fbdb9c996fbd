import SharedDocument
import StateHub
import StateHubJSON

// The mapping of docs/sync.md §4.2, both ways: a store's operations become document changes,
// and the document's path operations become store operations.

/// Why a store operation could not be made on a document.
public struct SharedStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

extension SharedDocument {
    /// Applies one store operation under the root map `root`. Objects become nested maps and
    /// arrays nested arrays; a tagged value (an object with `$type`, PROTOCOL.md A.3) is one value.
    func apply(_ op: MutationOp, root: String) throws {
        let top = try map(root)
        switch op {
        case .set(let path, let value):
            guard let last = path.last else {
                guard case .object(let members) = value else { throw SharedStoreError("the root of a store is set to something not an object") }
                let keep = Set(members.keys.map(\.string))
                for key in top.keys where !keep.contains(key) { try top.delete(key) }
                for (key, member) in members { try Self.write(member, to: top, key: key.string) }
                return
            }
            switch (try container(at: path.dropLast(), in: top), last) {
            case (.map(let map), .key(let key)):
                try Self.write(value, to: map, key: key)
            case (.array(let array), .index(let index)):
                if index < array.count { try array.delete(at: index) }
                // A write past the end pads with nulls, as the plugin does in JavaScript.
                while array.count < index { try array.push([.null]) }
                try Self.insert([value], into: array, at: index)
            case (.array(let array), .key("length")):
                guard case .number(let number) = value, number >= 0, number.rounded() == number, number < 1e9 else {
                    throw SharedStoreError("\(path): length is not a whole number")
                }
                let length = Int(number)
                if array.count > length { try array.delete(at: length, count: array.count - length) }
                while array.count < length { try array.push([.null]) }
            default:
                throw SharedStoreError("\(path): the parent is not a container for that step")
            }
        case .delete(let path):
            guard let last = path.last else { throw SharedStoreError("cannot delete the root") }
            switch (try container(at: path.dropLast(), in: top), last) {
            case (.map(let map), .key(let key)): try map.delete(key)
            case (.array(let array), .index(let index)):
                // JavaScript leaves a hole, which the mirror holds as null.
                if index < array.count {
                    try array.delete(at: index)
                    try array.insert([.null], at: index)
                }
            default: throw SharedStoreError("\(path): the parent is not a container for that step")
            }
        case .splice(let path, let index, let deleteCount, let items):
            guard case .array(let array) = try container(at: path[...], in: top) else { throw SharedStoreError("\(path): splice target is not an array") }
            let start = min(max(index, 0), array.count)
            let count = min(max(deleteCount, 0), array.count - start)
            if count > 0 { try array.delete(at: start, count: count) }
            try Self.insert(items, into: array, at: start)
        }
    }

    private enum Container {
        case map(YMap)
        case array(YArray)
    }

    private func container(at path: ArraySlice<StorePathStep>, in top: YMap) throws -> Container {
        var current = Container.map(top)
        for step in path {
            switch (current, step) {
            case (.map(let map), .key(let key)):
                if let nested = map.map(key) { current = .map(nested) } else if let nested = map.array(key) { current = .array(nested) } else {
                    throw SharedStoreError("\(path): \"\(key)\" is not a map or an array in the document")
                }
            case (.array(let array), .index(let index)):
                if let nested = array.map(at: index) { current = .map(nested) } else if let nested = array.array(at: index) { current = .array(nested) } else {
                    throw SharedStoreError("\(path): item \(index) is not a map or an array in the document")
                }
            default:
                throw SharedStoreError("\(path): step \(step) does not fit the container")
            }
        }
        return current
    }

    static func write(_ value: JSONValue, to map: YMap, key: String) throws {
        switch value {
        case .object(let members) where members["$type"] == nil:
            let nested = try map.setMap(key)
            for (member, inner) in members { try write(inner, to: nested, key: member.string) }
        case .array(let items):
            let nested = try map.setArray(key)
            try insert(items, into: nested, at: 0)
        default:
            try map.set(key, YValue(plain: value))
        }
    }

    static func insert(_ values: [JSONValue], into array: YArray, at index: Int) throws {
        var position = index
        for value in values {
            switch value {
            case .object(let members) where members["$type"] == nil:
                let nested = try array.insertMap(at: position)
                for (member, inner) in members { try write(inner, to: nested, key: member.string) }
            case .array(let items):
                let nested = try array.insertArray(at: position)
                try insert(items, into: nested, at: 0)
            default:
                try array.insert([YValue(plain: value)], at: position)
            }
            position += 1
        }
    }
}

extension YValue {
    /// A value stored whole (numbers, strings, booleans, null, and tagged values as their JSON).
    /// Whole numbers within 2^53 are stored as integers, as Yjs stores JavaScript's.
    init(plain value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number(let number):
            if number.rounded() == number, abs(number) <= 9_007_199_254_740_992 { self = .int(Int64(number)) } else { self = .double(number) }
        case .string(let string): self = .string(string)
        case .array(let items): self = .array(items.map(YValue.init(plain:)))
        case .object(let members):
            var object = YObject()
            for (key, member) in members { object[key.string] = YValue(plain: member) }
            self = .object(object)
        }
    }

    /// The store's JSON for a document value (`undefined` becomes null, bytes an array of numbers).
    var storeJSON: JSONValue {
        switch self {
        case .undefined, .null: return .null
        case .bool(let bool): return .bool(bool)
        case .int(let number), .bigint(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .string(let string): return .string(string)
        case .bytes(let bytes): return .array(bytes.map { .number(Double($0)) })
        case .array(let items): return .array(items.map(\.storeJSON))
        case .object(let object):
            var members = JSONValue.ObjectMembers()
            for (key, value) in object { members[JSONKey(key)] = value.storeJSON }
            return .object(members)
        }
    }
}

extension PathOperation {
    /// The same change as a store operation.
    var storeOp: MutationOp {
        switch self {
        case .set(let path, let value): .set(path: path.map(\.storeStep), value: value.storeJSON)
        case .delete(let path): .delete(path: path.map(\.storeStep))
        case .splice(let path, let index, let deleteCount, let items):
            .splice(path: path.map(\.storeStep), index: index, deleteCount: deleteCount, items: items.map(\.storeJSON))
        }
    }
}

extension DocumentPathStep {
    var storeStep: StorePathStep {
        switch self {
        case .key(let key): .key(key)
        case .index(let index): .index(index)
        }
    }
}
