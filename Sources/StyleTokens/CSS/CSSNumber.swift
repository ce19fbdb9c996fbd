/// Formats numbers for CSS and messages: integers without a fraction (`12`), others with at
/// most four decimals and no trailing zeros (`0.1`, `0.502`), never exponent notation in the
/// range themes use.
enum CSSNumber {
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        // Beyond this, fixed-point would overflow Int64; such values are nonsense for a theme anyway.
        guard abs(value) < 1e14 else { return "\(value)" }
        let scaled = Int64((abs(value) * 10_000).rounded())
        let whole = scaled / 10_000
        let fraction = scaled % 10_000
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard fraction != 0 else { return "\(sign)\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 4 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }

    /// `12px`, `0px`, `0.5px`.
    static func pixels(_ value: Double) -> String { format(value) + "px" }
}
