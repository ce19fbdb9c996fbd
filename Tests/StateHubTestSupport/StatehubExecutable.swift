import Foundation

/// The `statehub` binary built beside the test runner (`.build/debug/statehub`): tests that run
/// it as users do find it here.
public enum StatehubExecutable {
    public static var url: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("statehub")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}

/// What a test-support helper could not do, in words.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
