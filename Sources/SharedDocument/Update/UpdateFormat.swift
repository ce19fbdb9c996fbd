/// The two binary formats of a Yjs update (docs/shared-document.md): v1 (`encodeStateAsUpdate`)
/// and v2 (`encodeStateAsUpdateV2`, columns of run-length encoded fields). State vectors are
/// the same in both.
public enum UpdateFormat: String, Sendable, Equatable, CustomStringConvertible {
    case v1
    case v2

    public var description: String { "update format \(rawValue)" }
}
