import Foundation

/// Getting a version's files: reused from an installed version when one has the same digest,
/// else downloaded, at most ``maximumConcurrentDownloads`` at a time.
extension MicroAppDelivery {
    /// Downloads in flight at once for one version.
    public static let maximumConcurrentDownloads = 4

    /// The manifests of the installed versions (the last good one's too, for a `state.json`
    /// written before they were kept), for reuse.
    func installedManifests(_ state: AppDiskState) -> [String: Manifest] {
        var manifests = state.installedManifests ?? [:]
        if let lastGood = state.lastGoodManifest, manifests[lastGood.version] == nil { manifests[lastGood.version] = lastGood }
        return manifests
    }

    /// Every file of `manifest`, verified: a reused file was hashed on disk just now, a
    /// downloaded one on arrival. The first failure cancels the downloads still running.
    func fetchFiles(of manifest: Manifest, installed: [String: Manifest]) async throws(DeliveryProblem) -> [DeliveryDisk.IncomingFile] {
        // Paths were checked in fetchManifest; `files(of:)` only fails for a manifest that did not pass there.
        guard let files = DeliveryDisk.files(of: manifest) else { throw .invalidManifest("asset paths") }
        var result = [DeliveryDisk.IncomingFile?](repeating: nil, count: files.count)
        var downloads: [(index: Int, path: String, asset: Manifest.Asset, url: URL)] = []
        for (index, file) in files.enumerated() {
            if let existing = disk.reusable(file.asset, app: manifest.app, manifests: installed) {
                result[index] = .init(path: file.path, source: .existing(existing))
                continue
            }
            guard let url = URL(string: file.asset.url, relativeTo: configuration.server)?.absoluteURL else {
                throw .invalidManifest("bad URL \(file.asset.url.prefix(200))")
            }
            downloads.append((index, file.path, file.asset, url))
        }
        let http = self.http
        let outcome: Result<[(Int, Data)], DeliveryProblem> = await withTaskGroup(of: Result<(Int, Data), DeliveryProblem>.self) { group in
            var pending = downloads[...]
            var fetched: [(Int, Data)] = []
            func startNext() {
                guard let next = pending.popFirst() else { return }
                group.addTask {
                    do throws(DeliveryProblem) {
                        return .success((next.index, try await Self.download(next.asset, from: next.url, file: next.path, http: http)))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            for _ in 0 ..< Self.maximumConcurrentDownloads { startNext() }
            while let finished = await group.next() {
                switch finished {
                case .success(let file):
                    fetched.append(file)
                    startNext()
                case .failure(let problem):
                    group.cancelAll()
                    return .failure(problem)
                }
            }
            return .success(fetched)
        }
        for (index, data) in try outcome.get() { result[index] = .init(path: files[index].path, source: .data(data)) }
        return result.compactMap { $0 }
    }

    /// One file, checked against its size and SHA-256. No more than the manifest's size + 1
    /// bytes are read: a server or CDN that sends more is ``DeliveryProblem/oversized(file:expected:)``.
    static func download(_ asset: Manifest.Asset, from url: URL, file: String, http: any HTTPClient) async throws(DeliveryProblem) -> Data {
        let response: HTTPClientResponse
        do {
            response = try await http.get(url, headers: [:], bodyLimit: asset.size)
        } catch {
            throw .unreachable(error.description)
        }
        guard response.status == 200 else {
            throw .serverError(status: response.status, body: String(decoding: response.body.prefix(512), as: UTF8.self))
        }
        guard response.body.count <= asset.size else { throw .oversized(file: file, expected: asset.size) }
        guard response.body.count == asset.size else { throw .sizeMismatch(file: file, expected: asset.size, actual: response.body.count) }
        let actual = DeliveryDisk.sha256Hex(response.body)
        guard actual == asset.sha256 else { throw .hashMismatch(file: file, expected: asset.sha256, actual: actual) }
        return response.body
    }
}
