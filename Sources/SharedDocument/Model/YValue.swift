/// A value as Yjs's `Any` content holds it (lib0's `writeAny` types).
///
/// Numbers keep whether they were read as integers (`int`) or floats (`double`); both are a
/// JavaScript number on the other side, so `int(3)` and `double(3)` encode the same way.
/// Objects keep their keys in JavaScript's own order (integer-like keys first), which is
/// the order Yjs writes them in.
public enum YValue: Equatable, Sendable {
    case undefined
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case bigint(Int64)
    case string(String)
    case bytes([UInt8])
    case array([YValue])
    /// Indirect: ``YObject`` is two containers wide, and an array of values (a `push` of many
    /// items) would pay that width for every element.
    indirect case object(YObject)

    /// A JSON-like object from key/value pairs; later duplicates replace earlier ones.
    public static func object(_ pairs: KeyValuePairs<String, YValue>) -> YValue {
        var object = YObject()
        for (key, value) in pairs { object[key] = value }
        return .object(object)
    }
}
