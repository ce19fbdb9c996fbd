/// The timers waiting to fire, in firing order (due time, then insertion).
///
/// A binary min-heap of (due, sequence, id) beside a table of the live timers by id:
/// scheduling and firing cost O(log n), `clearTimeout` O(1) — it only forgets the id, and
/// the heap entry left behind is skipped when it reaches the top. When skipped entries
/// outnumber the live ones (plus a margin), the heap is rebuilt from the live timers, so
/// memory stays O(live timers) and the rebuild's cost is spread over the cancellations
/// that caused it.
struct TimerQueue {
    private struct Entry {
        var due: UInt64
        var sequence: UInt64
        var id: Int

        func precedes(_ other: Entry) -> Bool { due != other.due ? due < other.due : sequence < other.sequence }
    }

    private var heap: [Entry] = []
    private var live: [Int: ScheduledTimer] = [:]

    /// Live timers.
    var count: Int { live.count }
    var isEmpty: Bool { live.isEmpty }
    /// Every live timer, in no particular order.
    var all: Dictionary<Int, ScheduledTimer>.Values { live.values }

    mutating func insert(_ timer: ScheduledTimer) {
        live[timer.id] = timer
        push(Entry(due: timer.due, sequence: timer.sequence, id: timer.id))
    }

    /// Forgets the timer with `id` and returns it (for its values to be released).
    mutating func cancel(id: Int) -> ScheduledTimer? {
        guard let timer = live.removeValue(forKey: id) else { return nil }
        if heap.count > 2 * live.count + 1_024 { rebuild() }
        return timer
    }

    /// The earliest live timer, without removing it.
    mutating func first() -> ScheduledTimer? {
        dropStaleTop()
        return heap.first.flatMap { live[$0.id] }
    }

    /// Removes and returns the earliest live timer.
    mutating func removeFirst() -> ScheduledTimer? {
        dropStaleTop()
        guard !heap.isEmpty else { return nil }
        let top = popTop()
        return live.removeValue(forKey: top.id)
    }

    mutating func removeAll() {
        heap.removeAll()
        live.removeAll()
    }

    /// A heap entry is stale when its timer was cancelled, or fired and was rescheduled
    /// (an interval: the live timer has a newer sequence).
    private func isStale(_ entry: Entry) -> Bool { live[entry.id]?.sequence != entry.sequence }

    private mutating func dropStaleTop() {
        while let top = heap.first, isStale(top) { _ = popTop() }
    }

    private mutating func rebuild() {
        heap = live.values.map { Entry(due: $0.due, sequence: $0.sequence, id: $0.id) }
        guard heap.count > 1 else { return }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            let right = left + 1
            if right < heap.count, heap[right].precedes(heap[left]) { smallest = right }
            guard heap[smallest].precedes(heap[parent]) else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
