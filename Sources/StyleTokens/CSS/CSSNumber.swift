import Foundation

/// Formats numbers for CSS and messages: integers without a fraction (`12`), others with at
/// most four decimals and no trailing zeros (`0.1`, `0.502`), never exponent notation (CSS
/// reads `1e+308px` as nothing useful, and a message should show the digits).
///
/// A theme number that CSS cannot carry faithfully — one that rounds to 0 at four decimals
/// without being 0 (`1e-29`), or one at or beyond ``largestMagnitude`` — is refused by
/// `ThemeValidator` (``ThemeProblem/numberNotRepresentable(_:)``), so it never reaches CSS.
enum CSSNumber {
    /// Values this large or larger are refused: fixed-point digits for them overflow `Int64`,
    /// and no style needs them.
    static let largestMagnitude = 1e14

    /// Whether `value` can be written in CSS as the number it is.
    static func isRepresentable(_ value: Double) -> Bool {
        guard value.isFinite, abs(value) < largestMagnitude else { return false }
        return value == 0 || (abs(value) * 10_000).rounded() != 0
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        // Only in messages about refused values: every digit, no exponent.
        guard abs(value) < largestMagnitude else { return String(format: "%.0f", value) }
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
