import JSEngine
import Synchronization

/// A replaced mirror tree on its way to be freed on another thread (`GlobalStateHub.release`).
final class ReleasedTree: Sendable {
    private let tree: Mutex<JSONValue?>

    init(_ tree: JSONValue) { self.tree = Mutex(tree) }

    /// Frees the tree on the calling thread.
    func free() {
        let tree = self.tree.withLock { tree -> JSONValue? in
            defer { tree = nil }
            return tree
        }
        withExtendedLifetime(tree) {}
    }

    /// Whether the tree has a thousand members or more at its top two levels: worth a hop.
    var isLarge: Bool { tree.withLock { $0.map(Self.isLarge) ?? false } }

    private static func isLarge(_ tree: JSONValue) -> Bool {
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .array(let items): items.count
            case .object(let members): members.count
            default: 0
            }
        }
        var total = count(tree)
        switch tree {
        case .array(let items): for item in items where total < 1_000 { total += count(item) }
        case .object(let members): for value in members.values where total < 1_000 { total += count(value) }
        default: break
        }
        return total >= 1_000
    }
}
