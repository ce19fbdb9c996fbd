/// A platform-neutral sRGB colour with components in 0…1.
///
/// Invariant: every component lies in 0…1 (the initialiser clamps). Colours parsed from hex
/// keep their 8-bit values exactly: `hexString` gives back the digits that were parsed.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    public let red: Double
    public let green: Double
    public let blue: Double
    public let alpha: Double

    /// A colour from components, each clamped to 0…1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (case-insensitive). `#RGB` doubles each digit
    /// (`#0AF` is `#00AAFF`); alpha is 1 unless given.
    public init(hex: String) throws(HexColorError) {
        guard hex.hasPrefix("#") else { throw .missingHash }
        let digits = Array(hex.dropFirst())
        var values: [UInt8] = []
        for character in digits {
            guard let value = character.hexDigitValue else { throw .invalidDigit(character) }
            values.append(UInt8(value))
        }
        let bytes: [UInt8]
        switch values.count {
        case 3: bytes = values.map { $0 * 17 } + [255]
        case 6: bytes = stride(from: 0, to: 6, by: 2).map { values[$0] * 16 + values[$0 + 1] } + [255]
        case 8: bytes = stride(from: 0, to: 8, by: 2).map { values[$0] * 16 + values[$0 + 1] }
        default: throw .wrongDigitCount(values.count)
        }
        self.init(red: Double(bytes[0]) / 255, green: Double(bytes[1]) / 255,
                  blue: Double(bytes[2]) / 255, alpha: Double(bytes[3]) / 255)
    }

    /// The same colour with its alpha multiplied by `factor` (clamped to 0…1).
    public func multiplyingAlpha(by factor: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// The components rounded to 8 bits.
    public var rgba8: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func byte(_ value: Double) -> UInt8 { UInt8((value * 255).rounded()) }
        return (byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// Lowercase `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hexString: String {
        let (r, g, b, a) = rgba8
        let components = a == 255 ? [r, g, b] : [r, g, b, a]
        return "#" + components.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    public var description: String { hexString }
}
