import JSEngine

/// A source map (version 3, the format esbuild writes): where each place of a generated file
/// came from. Only what error locations need is read: `sources` and `mappings`.
///
/// `mappings` is decoded as the format says: generated lines separated by `;`, segments by
/// `,`, each segment 1, 4 or 5 Base64 VLQ numbers — generated column, source index, source
/// line, source column, name index — every one relative to the same field of the previous
/// segment (the generated column only within its line). A VLQ digit is one Base64 character:
/// 5 value bits, least significant group first, with bit 6 (32) saying another digit
/// follows; the lowest bit of the whole number is its sign.
/// O(length of `mappings`) to decode; a lookup is a binary search within one line.
struct SourceMap: Sendable {
    struct Segment: Sendable, Equatable {
        /// 0-based, in the generated line.
        var generatedColumn: Int
        var source: Int
        /// 0-based.
        var line: Int
        /// 0-based.
        var column: Int
    }

    /// A place in an original source: the path as the map names it, 1-based line and column.
    struct Place: Sendable, Equatable {
        var source: String
        var line: Int
        var column: Int
    }

    let sources: [String]
    /// Per generated line (0-based), its segments that point at a source, by column.
    let lines: [[Segment]]

    /// Reads a version 3 map; `nil` when it is not one or its mappings do not decode.
    init?(json text: String) {
        guard let value = try? JSONValue(parsing: text), value["version"]?.intValue == 3,
              let sources = value["sources"]?.arrayValue?.map({ $0.stringValue ?? "" }),
              let mappings = value["mappings"]?.stringValue,
              let lines = Self.decode(mappings, sourceCount: sources.count) else { return nil }
        self.sources = sources
        self.lines = lines
    }

    /// Where generated `line` (1-based) and `column` (1-based; `nil`: the line's first mapped
    /// place) came from.
    func place(line: Int, column: Int?) -> Place? {
        guard line >= 1, line <= lines.count else { return nil }
        let segments = lines[line - 1]
        guard !segments.isEmpty else { return nil }
        var chosen = segments[0]
        if let column {
            // The last segment that starts at or before the column.
            var low = 0, high = segments.count - 1
            while low <= high {
                let middle = (low + high) / 2
                if segments[middle].generatedColumn <= column - 1 { chosen = segments[middle]; low = middle + 1 } else { high = middle - 1 }
            }
        }
        return Place(source: sources[chosen.source], line: chosen.line + 1, column: chosen.column + 1)
    }

    /// The segments of `mappings`, by generated line; `nil` for text that is not Base64 VLQ or
    /// points outside `sources`.
    static func decode(_ mappings: String, sourceCount: Int) -> [[Segment]]? {
        var lines: [[Segment]] = [[]]
        var source = 0, line = 0, column = 0, name = 0
        var fields: [Int] = []
        fields.reserveCapacity(5)
        var generatedColumn = 0
        var value = 0, shift = 0

        func endSegment() -> Bool {
            defer { fields.removeAll(keepingCapacity: true) }
            guard !fields.isEmpty else { return true }
            guard [1, 4, 5].contains(fields.count), shift == 0 else { return false }
            generatedColumn += fields[0]
            guard fields.count >= 4 else { return true }
            source += fields[1]; line += fields[2]; column += fields[3]
            if fields.count == 5 { name += fields[4] }
            guard (0..<sourceCount).contains(source), line >= 0, column >= 0, generatedColumn >= 0 else { return false }
            lines[lines.count - 1].append(Segment(generatedColumn: generatedColumn, source: source, line: line, column: column))
            return true
        }

        for byte in mappings.utf8 {
            switch byte {
            case UInt8(ascii: ","):
                guard endSegment() else { return nil }
            case UInt8(ascii: ";"):
                guard endSegment() else { return nil }
                lines.append([])
                generatedColumn = 0
            default:
                guard let digit = base64[Int(byte)], shift < 60 else { return nil }
                value |= (digit & 31) << shift
                if digit & 32 != 0 {
                    shift += 5
                } else {
                    fields.append(value & 1 == 1 ? -(value >> 1) : value >> 1)
                    value = 0
                    shift = 0
                }
            }
        }
        guard endSegment() else { return nil }
        // esbuild writes segments in column order; sort anyway, the lookup relies on it.
        return lines.map { $0.sorted { $0.generatedColumn < $1.generatedColumn } }
    }

    /// Base64 digit values by byte (`nil` for bytes that are not Base64).
    static let base64: [Int?] = {
        var table = [Int?](repeating: nil, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { table[Int(byte)] = index }
        return table
    }()
}
