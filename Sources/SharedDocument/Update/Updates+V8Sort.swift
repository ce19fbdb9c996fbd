// The order `mergeUpdates` puts its update readers in, exactly as Yjs gets it from V8.

extension Updates {
    /// Yjs's reader comparator in `mergeUpdatesV2`: higher clients first, then lower clocks.
    /// An Item and a GC struct at the same clock compare −1 both ways (Yjs only ranks Skips,
    /// which its readers filter out), so which one is written depends on the sort algorithm.
    static func readerOrder(_ x: WireStruct, _ y: WireStruct) -> Int {
        guard x.id.client == y.id.client else { return y.id.client < x.id.client ? -1 : 1 }
        if x.id.clock != y.id.clock { return x.id.clock < y.id.clock ? -1 : 1 }
        if x.kind == y.kind { return 0 }
        return x.kind == .skip ? 1 : -1
    }

    /// Sorts as V8's `Array.prototype.sort` does with a comparator that may contradict
    /// itself (docs/shared-document.md, "Document-free functions").
    ///
    /// Below 64 elements V8's TimSort is one run: the run at the start (a strictly
    /// descending one reversed), then a binary insertion sort of the rest, copied here step for
    /// step. From 64 on, a stable sort with contradicting pairs kept in their order: the same
    /// result as V8's merges whenever the comparator is consistent.
    static func v8Sort<Element>(_ elements: inout [Element], by compare: (Element, Element) -> Int) {
        let count = elements.count
        guard count >= 2 else { return }
        guard count < 64 else {
            elements = elements.enumerated().sorted { a, b in
                let forward = compare(a.element, b.element)
                let backward = compare(b.element, a.element)
                if forward < 0 && backward >= 0 { return true }
                if backward < 0 && forward >= 0 { return false }
                return a.offset < b.offset
            }.map(\.element)
            return
        }
        // CountAndMakeRun(0, count).
        var run = 2
        let descending = compare(elements[1], elements[0]) < 0
        while run < count {
            let order = compare(elements[run], elements[run - 1])
            if descending ? order >= 0 : order < 0 { break }
            run += 1
        }
        if descending { elements[0..<run].reverse() }
        // BinaryInsertionSort(0, run, count).
        for start in run..<count {
            let pivot = elements[start]
            var left = 0
            var right = start
            while left < right {
                let middle = left + (right - left) >> 1
                if compare(pivot, elements[middle]) < 0 { right = middle } else { left = middle + 1 }
            }
            var position = start
            while position > left {
                elements[position] = elements[position - 1]
                position -= 1
            }
            elements[left] = pivot
        }
    }
}
