@testable import SharedDocument
import StateHubTesting

/// Valid updates from a seeded editing session of two Swift replicas (with concurrent edits,
/// deletes and nesting): material for malformed-update tests and the fuzz loop.
func randomSessionUpdates(seed: UInt64, edits: Int) throws -> [[UInt8]] {
    var random = SeededRandomNumberGenerator(seed: seed)
    var generator = EditGenerator(random: SeededRandomNumberGenerator(seed: seed ^ 0xABCDEF), asciiText: false)
    let replicas = [SharedDocument(clientID: 11), SharedDocument(clientID: 22)]
    for replica in replicas { for (root, kind) in testRoots { _ = try replica.root(root, kind: kind) } }
    var updates: [[UInt8]] = []
    for _ in 0..<edits {
        let author = Int(random.next() % 2)
        let before = replicas[author].encodeStateVector()
        try generator.edit(for: replicas[author]).apply(to: replicas[author])
        let update = try replicas[author].encodeStateAsUpdate(stateVector: before)
        updates.append(update)
        if random.next() % 3 == 0 { try replicas[1 - author].applyUpdate(update) }
    }
    updates.append(try replicas[0].encodeStateAsUpdate())
    updates.append(try replicas[1].encodeStateAsUpdate())
    return updates
}

/// Applies JSON path operations to a JSON value (the mirror a store would keep).
func applyOperation(_ operation: PathOperation, to value: inout YValue) {
    func modify(_ value: inout YValue, _ path: ArraySlice<PathStep>, _ change: (inout YValue?) -> Void) {
        guard let step = path.first else { return }
        let last = path.count == 1
        switch (value, step) {
        case (.object(var object), .key(let key)):
            value = .null
            if last {
                var slot = object[key]
                change(&slot)
                object[key] = slot
            } else if var child = object[key] {
                modify(&child, path.dropFirst(), change)
                object[key] = child
            }
            value = .object(object)
        case (.array(var array), .index(let index)) where index < array.count:
            value = .null
            if last {
                var slot: YValue? = array[index]
                change(&slot)
                array[index] = slot ?? .null
            } else {
                modify(&array[index], path.dropFirst(), change)
            }
            value = .array(array)
        default:
            break
        }
    }
    switch operation {
    case .set(let path, let newValue):
        modify(&value, path[...]) { $0 = newValue }
    case .delete(let path):
        modify(&value, path[...]) { $0 = nil }
    case .splice(let path, let index, let deleteCount, let items):
        modify(&value, path[...]) { slot in
            guard case .array(var array)? = slot else { return }
            array.replaceSubrange(index..<min(array.count, index + deleteCount), with: items)
            slot = .array(array)
        }
    }
}
