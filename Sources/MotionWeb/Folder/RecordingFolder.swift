import Foundation
import MotionAnalysis
import MotionCore
import MotionSystem
import Synchronization
import SystemPackage

/// One file of the folder as `stat` saw it: enough to tell whether a cached entry is still
/// true and to answer `ETag` / `Last-Modified`.
public struct FileStamp: Sendable, Equatable, Hashable {
    public var size: Int64
    /// Modification time, nanoseconds since 1970.
    public var modifiedNanos: Int64
    public var inode: UInt64

    /// A strong validator for this version of the file.
    public var etag: String { "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modifiedNanos, radix: 16))\"" }
    public var modifiedEpoch: Double { Double(modifiedNanos) / 1e9 }

    init(_ st: FileStatus) {
        self.init(size: st.size, modifiedNanos: st.modifiedNanos, inode: st.inode)
    }

    public init(size: Int64, modifiedNanos: Int64, inode: UInt64) {
        self.size = size; self.modifiedNanos = modifiedNanos; self.inode = inode
    }
}

/// The recordings folder, read only through its listing: a name a client sends is looked
/// up among the names `readdir` returns and never joined into a path, and every file is
/// opened relative to the folder with `O_NOFOLLOW`, so `..`, `/` and symlinks lead nowhere.
///
/// What the list shows comes from each recording's metadata JSON, decoded once and cached
/// by the stamps of its CSV and JSON. The sorted list is kept with the folder's own stamp:
/// while the folder has not changed (no file added, removed or replaced by rename — which
/// is how metadata and summaries are written), a listing only re-`stat`s the CSVs that may
/// still grow (not ended cleanly). A folder changed in the last 2 s is always rescanned, so
/// a file system with coarse timestamps cannot hide a change.
public final class RecordingFolder: Sendable {
    public let path: String
    private let cache = Mutex<[String: RecordingEntry]>([:])
    private let snapshot = Mutex<(folder: FileStamp, entries: [RecordingEntry])?>(nil)
    /// The whole-recording brief of each rotated recording, by its first part's name, with
    /// the stamps it was read for (its summary file's and every part's CSV's).
    private let wholeBriefs = Mutex<[String: (stamps: [FileStamp?], brief: SummaryCache.Brief?)]>([:])
    private let clock: @Sendable () -> Double

    /// `clock` gives epoch seconds (injected so tests decide what "recently written" means).
    public init(path: String, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.path = path
        self.clock = clock
    }

    /// Base names (without `.csv`) of the regular `.csv` files in the folder. Symlinks,
    /// folders and hidden files are not recordings, nor names `lookup` refuses (a `\`, 250
    /// bytes or more): such a file was listed, and in `?all=1` ZIPs, but every link to it was 404.
    public func names() throws(WebError) -> [String] {
        let entries: [FileSystem.Entry]
        do { entries = try FileSystem.entries(in: path) } catch {
            throw WebError.folder("cannot read the recordings folder \(path): \(error)")
        }
        return entries.compactMap { e in
            guard e.kind == .regular, e.name.hasSuffix(".csv"), !e.name.hasPrefix("."), e.name.utf8.count > 4,
                  !RecordingFiles.isOffloadManifest(e.name, in: path) else { return nil }
            let name = String(e.name.dropLast(4))
            return RecordingEntry.isPlausibleName(name) ? name : nil
        }
    }

    /// The `stat` of `name` in the folder (not following symlinks); nil when missing.
    public func stamp(_ fileName: String) -> FileStamp? {
        guard let st = try? FileSystem.status(path + "/" + fileName, followLinks: false), st.kind == .regular else { return nil }
        return FileStamp(st)
    }

    /// The folder's own stamp (its entries change its modification time).
    private func folderStamp() -> FileStamp? {
        (try? FileSystem.status(path)).map(FileStamp.init)
    }

    /// Every recording, newest first (by start time, then name).
    public func list() throws(WebError) -> [RecordingEntry] {
        let folder = folderStamp()
        if let folder, clock() - folder.modifiedEpoch > 2, var snap = snapshot.withLock({ $0 }), snap.folder == folder {
            // Same files as last time: only a CSV still being written can have changed.
            var changed = false
            for i in snap.entries.indices where !snap.entries[i].endedCleanly {
                let e = snap.entries[i]
                guard let csv = stamp(e.name + ".csv"), csv != e.csvStamp else { continue }
                snap.entries[i] = RecordingEntry.read(name: e.name, folder: path, csv: csv, json: stamp(RecordingFiles.metadataPath(for: e.name)),
                                                      summary: stamp(e.name + ".summary.json"))
                changed = true
            }
            if changed {
                snap.entries = Self.newestFirst(snap.entries, now: clock())
                let updated = snap
                snapshot.withLock { $0 = updated }
            }
            return snap.entries
        }
        let entries = try scan()
        if let folder { snapshot.withLock { $0 = (folder, entries) } }
        return entries
    }

    /// Lists and `stat`s the whole folder, reading metadata only for files that changed; the
    /// files are read on all processors at once (a first listing of 10 000 recordings
    /// decodes 10 000 metadata files).
    private func scan() throws(WebError) -> [RecordingEntry] {
        let names = try names()
        let cached = cache.withLock { $0 }
        let path = self.path
        let entries = ParallelWork.map(count: names.count) { k -> RecordingEntry? in
            let name = names[k]
            guard let csv = self.stamp(name + ".csv") else { return nil }
            let json = self.stamp(RecordingFiles.metadataPath(for: name)), summary = self.stamp(name + ".summary.json")
            if let c = cached[name], c.csvStamp == csv, c.jsonStamp == json, c.summaryStamp == summary { return c }
            return RecordingEntry.read(name: name, folder: path, csv: csv, json: json, summary: summary)
        }.compactMap { $0 }
        var fresh: [String: RecordingEntry] = [:]
        for e in entries { fresh[e.name] = e }
        cache.withLock { $0 = fresh }
        return Self.newestFirst(entries, now: clock())
    }

    /// Every recording, newest first: the parts of a rotated recording together
    /// (`RecordingParts`), with the distance and activities of its cached whole summary.
    public func recordings() throws(WebError) -> [RecordingParts] {
        let all = RecordingParts.grouping(try list()).map(withWholeSummary)
        let rotated = Set(all.lazy.filter { $0.parts.count > 1 }.map(\.name))
        wholeBriefs.withLock { memo in if memo.count > rotated.count { memo = memo.filter { rotated.contains($0.key) } } }
        return all
    }

    /// The recording a listed file belongs to (all its parts present), for a name a client sent.
    public func recording(containing name: String) throws(WebError) -> RecordingParts? {
        guard let entry = try lookup(name) else { return nil }
        guard entry.recordingID != nil,
              let found = try recordings().first(where: { r in r.parts.contains { $0.name == name } }) else {
            return RecordingParts([entry])
        }
        return found
    }

    /// `r` with the brief of the summary of all its parts together, when one is cached and
    /// fresh (read once per version of the summary and the parts).
    private func withWholeSummary(_ r: RecordingParts) -> RecordingParts {
        guard r.parts.count > 1 else { return r }
        let stamps: [FileStamp?] = [r.first.summaryStamp] + r.stamps
        let brief: SummaryCache.Brief?
        if let memo = wholeBriefs.withLock({ $0[r.name] }), memo.stamps == stamps {
            brief = memo.brief
        } else {
            brief = r.first.summaryStamp == nil ? nil : SummaryCache.loadBrief(for: r.csvPaths(in: path))
            wholeBriefs.withLock { $0[r.name] = (stamps, brief) }
        }
        guard let brief else { return r }
        var whole = r
        whole.distanceMeters = brief.distanceM
        whole.activitySeconds = brief.activitySeconds.isEmpty ? nil : brief.activitySeconds
        whole.hasWholeSummary = true
        return whole
    }

    /// The entry for a name a client sent, if the folder lists it (exact match).
    public func lookup(_ name: String) throws(WebError) -> RecordingEntry? {
        guard RecordingEntry.isPlausibleName(name), try names().contains(name),
              let csv = stamp(name + ".csv") else { return nil }
        let json = stamp(RecordingFiles.metadataPath(for: name)), summary = stamp(name + ".summary.json")
        if let c = cache.withLock({ $0[name] }), c.csvStamp == csv, c.jsonStamp == json, c.summaryStamp == summary { return c }
        let e = RecordingEntry.read(name: name, folder: path, csv: csv, json: json, summary: summary)
        cache.withLock { $0[name] = e }
        return e
    }

    /// Whether a file that its writer has not closed (metadata still says `recording`, or
    /// none yet) may still be being written: a writer holds its lock (`flock`, as the
    /// recorder does from the file's first byte to its close), or it was written to in the
    /// last minute (a recorder that takes no lock). A stalled card or a paused recorder
    /// writes nothing for minutes: the minute alone let the page delete a recording from
    /// under its writer. A file closed after write errors is finished, however recent.
    /// A file without metadata whose name is not a recorder's (`ride.csv` just copied in)
    /// is not taken for a recording by its age alone: the recorder names its files by time
    /// and locks them.
    public func mayBeWriting(_ entry: RecordingEntry) -> Bool {
        guard (entry.metadata?.ending ?? .unfinished) == .unfinished else { return false }
        let recent = clock() - entry.csvStamp.modifiedEpoch < 60
            && (entry.metadata != nil || entry.metadataProblem != nil || RecordingRecovery.isRecorderName(entry.name + ".csv"))
        return recent || FileSystem.isLockedExclusively(path + "/" + entry.name + ".csv")
    }

    /// Opens a file of the folder for reading without following symlinks.
    public func open(_ fileName: String) throws(WebError) -> FileDescriptor {
        let dir: Directory
        do { dir = try Directory(path: path) } catch { throw WebError.folder("cannot open \(path): \(error)") }
        do { return try dir.open(fileName, .readOnly, options: [.noFollow, .closeOnExec]) } catch {
            throw WebError.notFound(fileName)
        }
    }

    /// Removes one file of the folder (the directory entry itself, never a symlink's target).
    func unlink(_ fileName: String) -> Errno? {
        do {
            try Directory(path: path).remove(fileName)
            return nil
        } catch {
            return error
        }
    }

    /// Files beside a recording that belong to it and go with it on delete (cached summaries).
    static let cacheSuffixes = [RecordingFiles.summaryCacheSuffix]

    /// Lists the folder once in the background, so the first page view finds the cache warm.
    public func warmUp() {
        let t = Thread { [self] in _ = try? self.list() }
        t.name = "motionlog-web-warmup"
        t.start()
    }

    /// Drops a deleted recording from the caches.
    func forget(_ name: String) {
        _ = cache.withLock { $0.removeValue(forKey: name) }
        _ = wholeBriefs.withLock { $0.removeValue(forKey: name) }
        snapshot.withLock { $0 = nil }
    }

    static func newestFirst(_ entries: [RecordingEntry], now: Double) -> [RecordingEntry] {
        entries.sorted(by: isNewer)
    }

    /// The list's order: by start time (the file's modification time without one), then name.
    static func isNewer(_ a: RecordingEntry, _ b: RecordingEntry) -> Bool {
        let ta = a.startEpoch ?? a.csvStamp.modifiedEpoch, tb = b.startEpoch ?? b.csvStamp.modifiedEpoch
        return ta != tb ? ta > tb : a.name > b.name
    }
}

/// What went wrong serving a request, as the HTTP status and sentence the client gets.
public enum WebError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case folder(String)
    case refused(String)
    case badRequest(String)
    /// The server could not listen on the address: the system's reason in words (no
    /// function names, no errno numbers), and whether another program has the port.
    case cannotListen(ListenAddress, reason: String, portInUse: Bool)

    public var description: String {
        switch self {
        case .notFound(let n): return "no recording called \"\(n)\" in this folder"
        case .folder(let m), .refused(let m), .badRequest(let m): return m
        case .cannotListen(let address, let reason, _): return "cannot listen on \(address): \(reason)"
        }
    }
}
