/// A bounded FIFO that overwrites its oldest element when full.
///
/// Invariants: `count <= capacity`; `elements` are in insertion order;
/// `dropped` counts every element overwritten (or refused when `capacity == 0`).
/// `append` is O(1) and allocates only while the storage grows to `capacity`.
struct RingBuffer<Element> {
    let capacity: Int
    private var storage: [Element] = []
    /// Index of the oldest element once the buffer is full; 0 before.
    private var head = 0
    private(set) var dropped = 0

    init(capacity: Int) {
        precondition(capacity >= 0, "TraceRecorder capacity must not be negative")
        self.capacity = capacity
    }

    var count: Int { storage.count }

    mutating func append(_ element: Element) {
        if storage.count < capacity {
            storage.append(element)
            return
        }
        dropped += 1
        guard capacity > 0 else { return }
        storage[head] = element
        head += 1
        if head == capacity { head = 0 }
    }

    /// The elements, oldest first. O(count).
    var elements: [Element] {
        if head == 0 { return storage }
        var result: [Element] = []
        result.reserveCapacity(storage.count)
        result.append(contentsOf: storage[head...])
        result.append(contentsOf: storage[..<head])
        return result
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
