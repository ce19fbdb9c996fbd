import StateHubJSON

extension TimelineModel {
    /// What building a timeline may cost, in proportion to the trace read (docs/trace.md,
    /// "Bounds of the timeline"). A trace is data from outside — the console's Traces screen
    /// takes uploads — and a small one could otherwise ask for an unbounded answer or state:
    /// a refused message followed by thousands of ops, each change showing a big value as its
    /// `old` (a 336 KB trace made a 525 MB answer), or writes 100,000 past an array's end, each
    /// growing the replayed state by 100,000 `null`s (90 KB of trace aborted the server).
    package struct Limits: Sendable, Equatable {
        /// Most bytes of JSON the steps may add up to (their values, changes, snapshots and
        /// ops, as ``TimelineModel/Step/json`` writes them).
        package var answerBytes: Int
        /// Most `null`s the ops of the whole trace may add to arrays (a write past an array's
        /// end, a larger `length`). `js/timeline/timeline.js` keeps the same bound when it
        /// replays the steps (its `maxPaddingNulls`).
        package var paddingNulls: Int

        package init(answerBytes: Int, paddingNulls: Int) {
            self.answerBytes = answerBytes
            self.paddingNulls = paddingNulls
        }

        /// The bounds for a trace of at most `traceBytes` bytes: an answer of 8 × that, and
        /// one `null` of padding per 8 bytes (8 MiB: a 64 MiB answer, 1,048,576 `null`s).
        package init(traceBytes: Int) {
            let bytes = max(1, traceBytes)
            self.init(answerBytes: bytes.multipliedReportingOverflow(by: Self.answerFactor).overflow ? Int.max : bytes * Self.answerFactor,
                      paddingNulls: bytes / Self.bytesPerPaddingNull)
        }

        /// The answer may be this many times the trace's cap.
        package static let answerFactor = 8
        /// One `null` of padding is allowed per this many bytes of the trace's cap.
        package static let bytesPerPaddingNull = 8
        /// The cap the CLI assumes for a trace smaller than it (the server's default cap).
        package static let smallestTraceBytes = 8 << 20

        /// The CLI's bounds for `records`: those of a trace of their size (each message and
        /// 200 bytes for the rest of its line), or of an 8 MiB trace when that is larger.
        package static func forRecords(_ records: [TraceRecord]) -> Limits {
            var bytes = 0
            for record in records { bytes &+= record.message.utf8.count + 200 }
            return Limits(traceBytes: max(smallestTraceBytes, bytes))
        }
    }

    /// The number of bytes `JSONValue.jsonText()` would write for `value`, or nil as soon as
    /// it passes `limit` (so a value is never walked much past the budget). Iterative.
    static func textCount(_ value: JSONValue, limit: Int) -> Int? {
        var count = 0
        var stack: [JSONValue] = [value]
        var scratch = ""
        while let top = stack.popLast() {
            switch top {
            case .null: count += 4
            case .bool(let b): count += b ? 4 : 5
            case .number(let n):
                scratch.removeAll(keepingCapacity: true)
                JSONValue.writeNumber(n, into: &scratch)
                count += scratch.utf8.count
            case .string(let s): count += stringCount(s)
            case .array(let elements):
                count += 2 + max(0, elements.count - 1)
                stack.append(contentsOf: elements)
            case .object(let members):
                count += 2 + max(0, members.count - 1) + members.count
                for key in members.keys { count += stringCount(key.string) }
                stack.append(contentsOf: members.values)
            }
            if count > limit { return nil }
        }
        return count
    }

    static func stringCount(_ s: String) -> Int {
        var count = 2
        for byte in s.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: count += 2
            case ..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }

    /// How many `null`s `op` adds to an array of `state` when applied: a write past the end,
    /// or a larger `length`. 0 for anything else (and for an op that will be refused anyway).
    static func padding(_ op: MutationOp, in state: JSONValue) -> Int {
        guard case .set(let path, let newValue) = op, let last = path.last,
              case .array(let elements)? = Self.value(at: Array(path.dropLast()), in: state) else { return 0 }
        if case .key("length") = last {
            guard let n = newValue.intValue else { return 0 }
            return max(0, n - elements.count)
        }
        guard let index = last.arrayIndex else { return 0 }
        return max(0, index - elements.count)
    }
}

/// Building a timeline would pass one of ``TimelineModel/Limits``: the trace is refused
/// whole, naming the bound and the record where it was passed.
package struct TimelineModelError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Bound: Sendable, Equatable {
        /// ``TimelineModel/Limits/answerBytes``.
        case answerBytes
        /// ``TimelineModel/Limits/paddingNulls``.
        case paddingNulls
    }

    package let bound: Bound
    package let limit: Int
    /// 1-based position of the record among those read.
    package let record: Int
    /// That record's `step`.
    package let step: Int

    package var description: String {
        switch bound {
        case .answerBytes:
            "the timeline of this trace would be larger than \(limit) bytes (the bound: \(TimelineModel.Limits.answerFactor) × the largest trace read), "
                + "passed at record \(record) (step \(step)): its changes repeat large values"
        case .paddingNulls:
            "the operations of this trace grow arrays by more than \(limit) nulls in all (the bound: one per \(TimelineModel.Limits.bytesPerPaddingNull) bytes "
                + "of the largest trace read), passed at record \(record) (step \(step)): writes far past an array's end or a larger length"
        }
    }
}
