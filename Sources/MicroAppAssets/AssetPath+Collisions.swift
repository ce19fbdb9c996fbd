extension AssetPath {
    /// One path of a set that cannot sit beside an earlier one on disk.
    public struct Collision: Sendable, Hashable, CustomStringConvertible {
        /// The index of the later path.
        public var index: Int
        /// The index of the earlier path it collides with.
        public var earlier: Int
        public var description: String
    }

    /// Every path of `paths` that collides with an earlier one, ignoring ASCII case: the same
    /// path again, one differing only in case, or a file that is also a folder of another
    /// (`img` and `img/logo.png`). Empty when all of them can be written into one folder,
    /// on a case-insensitive disk too. O(paths × segments).
    public static func collisions(in paths: [AssetPath]) -> [Collision] {
        var files: [String: Int] = [:]
        var folders: [String: Int] = [:]
        var found: [Collision] = []
        for (index, path) in paths.enumerated() {
            if let earlier = files[path.folded] {
                let same = paths[earlier].value == path.value
                found.append(Collision(index: index, earlier: earlier, description: same
                    ? "\(path) is listed twice"
                    : "\(path) differs only in case from \(paths[earlier]) (one file on a case-insensitive disk)"))
                continue
            }
            if let earlier = folders[path.folded] {
                found.append(Collision(index: index, earlier: earlier,
                                       description: "\(path) is a folder of \(paths[earlier]), so it cannot also be a file"))
                continue
            }
            var prefixes: [String] = []
            var prefix = ""
            for segment in path.folded.split(separator: "/").dropLast() {
                prefix += prefix.isEmpty ? String(segment) : "/" + segment
                prefixes.append(prefix)
            }
            if let (folder, earlier) = prefixes.lazy.compactMap({ folder in files[folder].map { (folder, $0) } }).first {
                found.append(Collision(index: index, earlier: earlier,
                                       description: "\(path) needs a folder \(folder), which is the file \(paths[earlier])"))
                continue
            }
            files[path.folded] = index
            for folder in prefixes where folders[folder] == nil { folders[folder] = index }
        }
        return found
    }
}
