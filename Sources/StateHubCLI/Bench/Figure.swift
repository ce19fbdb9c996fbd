/// One benchmark figure: the median of several repetitions, with and without the JIT.
struct Figure: Codable, Sendable {
    /// Stable key, e.g. `engine.js_to_native_calls_per_s`.
    var key: String
    /// What a reader sees in the table.
    var label: String
    var unit: String
    /// Whether a larger value is better (calls per second) or a smaller one (microseconds).
    var higherIsBetter: Bool
    var jit: Double?
    var noJIT: Double?
    /// The figure this one is compared with, measured in the same run (same column).
    var baselineKey: String?

    init(key: String, label: String, unit: String, higherIsBetter: Bool, jit: Double?, noJIT: Double? = nil, baselineKey: String? = nil) {
        self.key = key
        self.label = label
        self.unit = unit
        self.higherIsBetter = higherIsBetter
        self.jit = jit
        self.noJIT = noJIT
        self.baselineKey = baselineKey
    }
}

/// Median of a non-empty sample; 0 for an empty one.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The value at `fraction` (0…1) of a sample, nearest rank.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
