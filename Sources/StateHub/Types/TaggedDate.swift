import Foundation
import JSEngine

/// A JavaScript `Date` in its tagged form, `{"$type":"Date","value":"2026-11-22T10:00:00.000Z"}`
/// (docs/PROTOCOL.md A.3), as `statehub types` maps it (docs/types.md).
///
/// Decodes and encodes the tagged object itself, so a generated state type reads a mirror
/// as it is. An invalid date (`"value": null`) is a `nil` ``date``.
public struct TaggedDate: Codable, Hashable, Sendable {
    /// The instant, or `nil` for JavaScript's invalid date.
    public var date: Date?

    public init(_ date: Date?) { self.date = date }

    private enum CodingKeys: String, CodingKey {
        case type = "$type"
        case value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let tag = try container.decode(String.self, forKey: .type)
        guard tag == "Date" else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "expected a tagged Date, found $type \(tag)")
        }
        guard let text = try container.decodeIfPresent(String.self, forKey: .value) else { date = nil; return }
        guard let parsed = TaggedValue.parseISO8601(text) else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "not an ISO 8601 date: \(text)")
        }
        date = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("Date", forKey: .type)
        if let date {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            try container.encode(formatter.string(from: date), forKey: .value)
        } else {
            try container.encodeNil(forKey: .value)
        }
    }
}
