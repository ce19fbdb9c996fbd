import Foundation

/// Unique paths in the temporary directory for file tests.
enum TemporaryFile {
    static func path(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.path
        return "\(directory)/tracetests-\(UUID().uuidString)-\(name)"
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func write(_ text: String, name: String = "trace.ndjson") throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
