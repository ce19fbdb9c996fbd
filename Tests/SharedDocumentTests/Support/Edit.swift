import Foundation
@testable import SharedDocument
import StateHubTesting

/// The roots every replica names, in this order.
let testRoots: [(String, SharedTypeKind)] = [("m", .map), ("a", .array), ("t", .text)]
let testRootsForPeers: [[String]] = [["m", "map"], ["a", "array"], ["t", "text"]]

/// One edit, in the form the peers understand. `path` = [root, rootKind, steps…].
struct Edit {
    enum Kind: String { case mapSet, mapSetType, mapDelete, arrayInsert, arrayInsertType, arrayPush, arrayDelete, textInsert, textDelete }
    var kind: Kind
    var path: [PathStep]
    var rootKind: String
    var key: String?
    var value: YValue?
    var values: [YValue]?
    var type: String?
    var index: Int?
    var count: Int?
    var text: String?

    var command: [String: Any] {
        var out: [String: Any] = ["kind": kind.rawValue]
        var path: [Any] = []
        for (position, step) in self.path.enumerated() {
            switch step {
            case .key(let key): path.append(key)
            case .index(let index): path.append(index)
            }
            if position == 0 { path.append(rootKind) }
        }
        out["path"] = path
        if let key { out["key"] = key }
        // As JSON text: a dictionary would lose the objects' key order on the way.
        if let value { out["valueJSON"] = value.jsonText }
        if let values { out["valuesJSON"] = YValue.array(values).jsonText }
        if let type { out["type"] = type }
        if let index { out["index"] = index }
        if let count { out["count"] = count }
        if let text { out["text"] = text }
        return out
    }

    func apply(to document: SharedDocument) throws {
        let target = try resolve(document)
        switch kind {
        case .mapSet: try target.map!.set(key!, value!)
        case .mapSetType:
            switch type! {
            case "map": try target.map!.setMap(key!)
            case "array": try target.map!.setArray(key!)
            default: try target.map!.setText(key!)
            }
        case .mapDelete: try target.map!.delete(key!)
        case .arrayInsert: try target.array!.insert(values!, at: index!)
        case .arrayInsertType:
            switch type! {
            case "map": try target.array!.insertMap(at: index!)
            case "array": try target.array!.insertArray(at: index!)
            default: try target.array!.insertText(at: index!)
            }
        case .arrayPush: try target.array!.push(values!)
        case .arrayDelete: try target.array!.delete(at: index!, count: count!)
        case .textInsert: try target.text!.insert(text!, at: index!)
        case .textDelete: try target.text!.delete(at: index!, count: count!)
        }
    }

    struct Target {
        var map: YMap?
        var array: YArray?
        var text: YText?
    }

    func resolve(_ document: SharedDocument) throws -> Target {
        guard case .key(let root) = path[0] else { throw PeerProcess.Failure(description: "bad path") }
        var target = Target()
        switch rootKind {
        case "map": target.map = try document.map(root)
        case "array": target.array = try document.array(root)
        default: target.text = try document.text(root)
        }
        for step in path.dropFirst() {
            var next = Target()
            switch step {
            case .key(let key):
                next.map = target.map?.map(key); next.array = target.map?.array(key); next.text = target.map?.text(key)
            case .index(let index):
                next.map = target.array?.map(at: index); next.array = target.array?.array(at: index); next.text = target.array?.text(at: index)
            }
            target = next
        }
        return target
    }
}

/// Random edits valid on a given document's current state.
struct EditGenerator {
    var random: SeededRandomNumberGenerator
    /// Yrs measures text in UTF-8 bytes: keep text ASCII when a Yrs replica takes part.
    var asciiText: Bool
    /// Sometimes insert or delete inside a surrogate pair (Yjs then replaces both halves with
    /// U+FFFD): only where every replica is Swift or Yjs, whose splits must agree.
    var cutsPairs = false

    mutating func int(_ bound: Int) -> Int { random.next(below: bound) }

    mutating func value(depth: Int = 0) -> YValue {
        switch int(depth > 1 ? 6 : 8) {
        case 0: return .int(Int64(int(2000)) - 1000)
        case 1: return .string(["", "a", "hello", "é", "😀 ok", "x\"y"][int(6)])
        case 2: return .bool(int(2) == 0)
        case 3: return .null
        case 4: return .double([0.5, -2.25, 1e10 + 0.5, 3.14159][int(4)])
        case 5: return .int(Int64(int(5_000_000_000)))
        case 6: return .array((0..<int(3)).map { _ in value(depth: depth + 1) })
        default:
            var object = YObject()
            for _ in 0..<int(3) { object[["k", "b", "1", "a", "10"][int(5)]] = value(depth: depth + 1) }
            return .object(object)
        }
    }

    mutating func textPiece() -> String {
        // Yrs runs type ASCII pieces only, long runs and NULs included: they find the same-clock
        // ties of docs/shared-document.md, "Tests".
        guard !asciiText else {
            if int(40) == 0 { return String(repeating: "long ascii ", count: 300) }
            let pieces = ["a", "bc", "hello ", "XYZ", "!", "nul\u{0}here", "a run of ASCII past fourteen characters"]
            return pieces[int(pieces.count)]
        }
        // Runs past the 14 characters held inside an item, NULs, astral characters, and
        // (rarely) one long item of mixed text.
        if int(40) == 0 { return String(repeating: "long é😀 ", count: 300) }
        let pieces = ["a", "bc", "é", "😀", "hello ", "ñá", "a run of ASCII past fourteen characters", "nul\u{0}here", "𝄞x😀", "ascii then é", "\u{0}"]
        return pieces[int(pieces.count)]
    }

    /// Every type in the document with its path, up to a few levels.
    func targets(_ document: SharedDocument) throws -> [(path: [PathStep], rootKind: String, target: Edit.Target)] {
        var result: [(path: [PathStep], rootKind: String, target: Edit.Target)] = []
        func walk(_ path: [PathStep], _ rootKind: String, _ target: Edit.Target) {
            result.append((path, rootKind, target))
            guard path.count < 5 else { return }
            if let map = target.map {
                for key in map.keys {
                    if let child = map.map(key) { walk(path + [.key(key)], rootKind, Edit.Target(map: child)) }
                    if let child = map.array(key) { walk(path + [.key(key)], rootKind, Edit.Target(array: child)) }
                    if let child = map.text(key) { walk(path + [.key(key)], rootKind, Edit.Target(text: child)) }
                }
            }
            if let array = target.array {
                for index in 0..<array.count {
                    if let child = array.map(at: index) { walk(path + [.index(index)], rootKind, Edit.Target(map: child)) }
                    if let child = array.array(at: index) { walk(path + [.index(index)], rootKind, Edit.Target(array: child)) }
                    if let child = array.text(at: index) { walk(path + [.index(index)], rootKind, Edit.Target(text: child)) }
                }
            }
        }
        walk([.key("m")], "map", Edit.Target(map: try document.map("m")))
        walk([.key("a")], "array", Edit.Target(array: try document.array("a")))
        walk([.key("t")], "text", Edit.Target(text: try document.text("t")))
        return result
    }

    mutating func edit(for document: SharedDocument) throws -> Edit {
        let all = try targets(document)
        let (path, rootKind, target) = all[int(all.count)]
        let kinds = ["map", "array", "text"]
        if let map = target.map {
            let keys = ["a", "b", "c", "2", "title", "n"]
            switch int(10) {
            case 0..<6: return Edit(kind: .mapSet, path: path, rootKind: rootKind, key: keys[int(keys.count)], value: value())
            case 6, 7: return Edit(kind: .mapSetType, path: path, rootKind: rootKind, key: keys[int(keys.count)], type: kinds[int(3)])
            default:
                let existing = map.keys
                return Edit(kind: .mapDelete, path: path, rootKind: rootKind, key: existing.isEmpty ? "a" : existing[int(existing.count)])
            }
        }
        if let array = target.array {
            let count = array.count
            switch int(10) {
            case 0..<4: return Edit(kind: .arrayInsert, path: path, rootKind: rootKind, values: (0..<(1 + int(3))).map { _ in value() }, index: int(count + 1))
            case 4, 5: return Edit(kind: .arrayInsertType, path: path, rootKind: rootKind, type: kinds[int(3)], index: int(count + 1))
            case 6, 7: return Edit(kind: .arrayPush, path: path, rootKind: rootKind, values: (0..<(1 + int(2))).map { _ in value() })
            default:
                guard count > 0 else { return Edit(kind: .arrayPush, path: path, rootKind: rootKind, values: [value()]) }
                let index = int(count)
                return Edit(kind: .arrayDelete, path: path, rootKind: rootKind, index: index, count: 1 + int(min(3, count - index)))
            }
        }
        let text = target.text!
        let length = text.length
        let units = Array(text.toString().utf16)
        let cut = cutsPairs && int(4) == 0
        func boundary(_ index: Int) -> Int {
            // Never cut a surrogate pair (a client editing text would not either), unless told to.
            guard !cut else { return index }
            var index = index
            while index > 0, index < units.count, units[index] >= 0xDC00, units[index] <= 0xDFFF { index -= 1 }
            return index
        }
        if length > 0 && int(3) == 0 {
            let start = boundary(int(length))
            let end = boundary(min(length, start + 1 + int(4)))
            if end > start { return Edit(kind: .textDelete, path: path, rootKind: rootKind, index: start, count: end - start) }
        }
        return Edit(kind: .textInsert, path: path, rootKind: rootKind, index: boundary(int(length + 1)), text: textPiece())
    }
}
