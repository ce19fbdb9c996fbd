/// Why a ``HeadlessShell`` user action could not be performed.
public enum HeadlessShellError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `tapRightItem(at:)` with no item at that index.
    case noRightItem(index: Int, count: Int)

    public var description: String {
        switch self {
        case .noRightItem(let index, let count): "no right header item at index \(index) (the header has \(count))"
        }
    }
}
