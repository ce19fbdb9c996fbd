/// Equality and hashing walk the value with an explicit stack: a value nested tens of
/// thousands of levels deep compares without overflowing the thread's stack.
///
/// Objects are equal when they hold equal keys (``JSONKey``: code units) in the same order
/// with equal values; strings compare by code units too (`"é" != "e\u{301}"`, as in
/// JavaScript); numbers compare as `Double`s (`0 == -0`, `NaN != NaN`).
extension JSONValue: Hashable {
    /// - Complexity: O(n) in the size of the smaller value.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var pair = (lhs, rhs)
        while true {
            switch pair {
            case (.null, .null): break
            case (.bool(let l), .bool(let r)): if l != r { return false }
            case (.number(let l), .number(let r)): if l != r { return false }
            case (.string(let l), .string(let r)): if JSONKey(l) != JSONKey(r) { return false }
            case (.array(let l), .array(let r)):
                guard l.count == r.count else { return false }
                for index in l.indices { pending.append((l[index], r[index])) }
            case (.object(let l), .object(let r)):
                guard l.count == r.count else { return false }
                for index in l.elements.indices {
                    guard l.keys[index] == r.keys[index] else { return false }
                    pending.append((l.values[index], r.values[index]))
                }
            default: return false
            }
            guard let next = pending.popLast() else { return true }
            pair = next
        }
    }

    public func hash(into hasher: inout Hasher) {
        var pending: [JSONValue] = []
        var value = self
        while true {
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .bool(let b): hasher.combine(1 as UInt8); hasher.combine(b)
            case .number(let n): hasher.combine(2 as UInt8); hasher.combine(n)
            case .string(let s): hasher.combine(3 as UInt8); hasher.combine(JSONKey(s))
            case .array(let elements):
                hasher.combine(4 as UInt8)
                hasher.combine(elements.count)
                pending.append(contentsOf: elements.reversed())
            case .object(let members):
                hasher.combine(5 as UInt8)
                hasher.combine(members.count)
                for key in members.keys { hasher.combine(key) }
                pending.append(contentsOf: members.values.reversed())
            }
            guard let next = pending.popLast() else { return }
            value = next
        }
    }
}
