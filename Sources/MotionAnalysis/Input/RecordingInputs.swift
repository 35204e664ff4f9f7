import Foundation
import MotionCore
import MotionSystem

/// Turns the command line's `FILE|DIR...` into the CSV files to read, in time order, and
/// reads the metadata JSON beside each. A folder stands for every `*.csv` in it (not
/// recursive); names are `yyyyMMddHHmmss[-N].csv`, so name order is time order.
public enum RecordingInputs {
    public struct NotFound: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path): no such file or folder" }
    }

    /// The paths name no recording at all (empty folders, or folders without `.csv` files):
    /// nothing to read, as `check`, `summary` and `export` all say it (exit 2).
    public struct NoRecordings: Error, CustomStringConvertible {
        public var paths: [String]
        public init(paths: [String]) { self.paths = paths }
        public var description: String { "no recordings (.csv) in \(paths.joined(separator: ", "))" }
    }

    /// `resolve`, with `NoRecordings` when it finds no file to read.
    public static func resolveSome(_ paths: [String]) throws -> [String] {
        let files = try resolve(paths)
        if files.isEmpty { throw NoRecordings(paths: paths) }
        return files
    }

    /// `paths` in the order given, each folder replaced by its recordings in time order
    /// (`resolveSome`) and each file kept as given (for commands that read every path
    /// given, even one that is not a recording). `failed` hears of a folder that cannot be
    /// read or holds no recording.
    public static func expandingFolders(_ paths: [String], failed: (any Error) throws -> Void) rethrows -> [String] {
        var files: [String] = []
        for path in paths {
            guard (try? FileSystem.status(path).kind) == .directory else { files.append(path); continue }
            do { files += try resolveSome([path]) } catch { try failed(error) }
        }
        return files
    }

    /// The CSV files named by `paths` (files as given, folders expanded), duplicates
    /// removed, in time order whatever the order of the arguments: by the first row's time in
    /// each file's metadata when every file has it; else, when every file is named by its
    /// time (`yyyyMMddHHmmss[-N].csv` or provisional), by name (`timeOrderKey`). Otherwise
    /// (a `ride.csv` without metadata) a folder's files by name, files in the order given.
    public static func resolve(_ paths: [String]) throws -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        for path in paths {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw NotFound(path: path) }
            if isDir.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                for name in names.sorted(by: { timeOrderKey($0) < timeOrderKey($1) }) where name.hasSuffix(".csv") && !name.hasPrefix(".") {
                    let full = (path as NSString).appendingPathComponent(name)
                    // Only files: a folder or a FIFO named x.csv is not a recording (a FIFO
                    // would block the read; a folder stopped the whole summary).
                    guard (try? FileSystem.status(full).kind) == .regular else { continue }
                    // A folder copied by `offload` holds its manifest too: no recording.
                    if RecordingFiles.isOffloadManifest(name, in: path) { continue }
                    if seen.insert(full).inserted { out.append(full) }
                }
            } else if seen.insert(path).inserted {
                out.append(path)
            }
        }
        let names = out.map { ($0 as NSString).lastPathComponent }
        let starts = out.map { RecordingFiles.readMetadata(besides: $0)?.firstRowEpoch }
        if starts.allSatisfy({ $0?.isFinite == true }) {
            // Every file says when its first row was: that order (names are local times; a
            // daylight-saving fall-back put 01:05 EST before 01:35 EDT and dropped the trip).
            out = zip(out, zip(starts, names)).sorted { a, b in
                let (x, y) = (a.1.0 ?? 0, b.1.0 ?? 0)
                return x != y ? x < y : timeOrderKey(a.1.1) < timeOrderKey(b.1.1)
            }.map(\.0)
        } else if names.allSatisfy({ isTimeName($0) || $0.hasPrefix(provisionalPrefix) }) {
            out = zip(out, names).sorted { timeOrderKey($0.1) < timeOrderKey($1.1) }.map(\.0)
        }
        return placingProvisional(out)
    }

    /// `files` with each file left out whose rows another of them holds: a `fuse` output
    /// (metadata `recording.deviceMotion.recomputedFrom`) copies its input's rows with the D
    /// rows recomputed, and beside its input in a folder every row was read twice (twice the
    /// rows and the rate, each GPS point twice in an export). The fused file is read, as the
    /// newer work on the same rows; of several fused from one input, the first. `leftOut`
    /// says why each file was left out.
    public static func readingOnce(_ files: [String]) -> (files: [String], leftOut: [String]) {
        // Each fused file's input, when it is among the files (metadata read once).
        let given = Set(files)
        let inputOf: [(path: String, input: String)] = files.compactMap { path in
            guard let name = RecordingFiles.readMetadata(besides: path)?.recording.recomputedFrom else { return nil }
            let input = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
            return input != path && given.contains(input) ? (path, input) : nil
        }
        var copyOf: [String: String] = [:]   // left-out path -> the file that holds its rows
        // (A file fused again is left out for its own fused file and still stands for its input.)
        for (path, input) in inputOf where copyOf[input] == nil { copyOf[input] = path }
        // Other files fused from the same input as the one read.
        for (path, input) in inputOf where copyOf[path] == nil {
            if let kept = copyOf[input], kept != path { copyOf[path] = kept }
        }
        let inputs = Dictionary(inputOf.map { ($0.path, $0.input) }, uniquingKeysWith: { a, _ in a })
        let leftOut = files.compactMap { path in
            copyOf[path].map { kept in
                // Another output of the same input holds the same A, G, M and L rows (its D rows
                // may differ: another calibration): it said "fuse recomputed their D rows".
                let how = inputs[path].map { "both were fused from \(($0 as NSString).lastPathComponent), with their own D rows" }
                    ?? "motionlog fuse recomputed their D rows"
                return "\(path): left out: \(kept) holds the same rows (\(how)); name it alone to read it"
            }
        }
        return (files.filter { copyOf[$0] == nil }, leftOut)
    }

    /// Whether `name` is `yyyyMMddHHmmss.csv` or `yyyyMMddHHmmss-N.csv` (the writer's names).
    static func isTimeName(_ name: String) -> Bool {
        let u = Array(name.utf8)
        guard u.count >= 18, name.hasSuffix(".csv"), u[0..<14].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        if u.count == 18 { return true }
        return u[14] == 0x2D && u.count > 19 && u[15..<(u.count - 4)].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A sort key that puts the writer's names in time order: `…000000-2.csv` (the third file
    /// begun in that second) after `…000000-1.csv` and after `…000000.csv`, which plain name
    /// order puts last ('-' sorts before '.'). Other names sort by themselves, provisional
    /// (`unsynced-…`) ones after every dated name.
    static func timeOrderKey(_ name: String) -> String {
        guard isTimeName(name) else { return name }
        let stem = name.dropLast(4)
        let number = stem.count > 14 ? String(stem.dropFirst(15)) : "0"
        return String(stem.prefix(14)) + "/" + String(repeating: "0", count: max(0, 10 - number.count)) + number
    }

    /// A file named provisionally (`unsynced-…`: closed by rotation before GPS time was
    /// known, docs/GPS.md) sorts after every dated name, though it was written before them.
    /// Each is moved right before the file that names it as its `previous` in the metadata,
    /// so the files of a recording are read in the order they were written.
    static func placingProvisional(_ files: [String]) -> [String] {
        guard files.contains(where: { ($0 as NSString).lastPathComponent.hasPrefix(provisionalPrefix) }) else { return files }
        // Each file's provisional predecessor, from its metadata (read once).
        var predecessor: [String: String] = [:]
        for path in files {
            guard let previous = RecordingFiles.readMetadata(besides: path)?.file.previous,
                  previous.hasPrefix(provisionalPrefix) else { continue }
            predecessor[path] = ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(previous)
        }
        var result = files
        var moved = true
        var rounds = 0
        while moved && rounds <= files.count {   // a chain of provisional files takes a round each
            moved = false
            rounds += 1
            for (k, path) in result.enumerated() {
                guard let candidate = predecessor[path], let from = result.firstIndex(of: candidate), from > k else { continue }
                result.remove(at: from)
                result.insert(candidate, at: k)
                moved = true
                break
            }
        }
        return result
    }

    static let provisionalPrefix = RecordingFiles.provisionalStem + "-"

    /// Size and modification time of each file (what the summary cache compares).
    public static func stamps(_ csvPaths: [String]) throws -> [AnalysisSummary.SourceFile] {
        try csvPaths.map { path in
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            return AnalysisSummary.SourceFile(path: path, bytes: size,
                                               mtimeNs: Int64((date.timeIntervalSince1970 * 1e9).rounded()))
        }
    }
}

/// Local calendar days (for `--day YYYY-MM-DD`): dates and clock times from MotionCore's ISO
/// 8601 local formatting, the zone's offset from the system (`CalendarTime`).
public enum LocalDay {
    /// `[start, end)` of the local day `text` (`YYYY-MM-DD`) in Unix seconds; nil when malformed.
    public static func bounds(_ text: String) -> (start: Double, end: Double)? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        let midnightUTC = Double(TimeText.daysFromCivil(y, m, d)) * 86400
        let start = localMidnight(midnightUTC)
        let end = localMidnight(midnightUTC + 86400)
        guard date(start) == text else { return nil }
        return (start, end)
    }

    /// The moment local clocks read the midnight that `wallClock` (Unix seconds of that
    /// midnight read as UTC) stands for. The offset is taken at a first guess and again at
    /// the moment it gives, so a change of offset (daylight saving) between UTC midnight and
    /// local midnight is followed.
    static func localMidnight(_ wallClock: Double) -> Double {
        let guess = wallClock - offset(at: wallClock)
        return wallClock - offset(at: guess)
    }

    /// `YYYY-MM-DD` of `epoch` in local time.
    public static func date(_ epoch: Double) -> String { String(TimeText.isoLocal(epochSeconds: epoch).prefix(10)) }

    /// `HH:MM:SS` of `epoch` in local time; in the hour a daylight-saving change repeats
    /// (the clocks go back), followed by the offset, `01:30:00 -04:00`, since the same
    /// reading then stands for two moments.
    public static func clock(_ epoch: Double) -> String { localTime(epoch, characters: 8) }

    /// `HH:MM` of `epoch` in local time, with the offset in the repeated hour as `clock`.
    public static func hourMinute(_ epoch: Double) -> String { localTime(epoch, characters: 5) }

    /// The first `characters` of the local `HH:MM:SS` of `epoch`, marked as `marked` does.
    static func localTime(_ epoch: Double, characters: Int) -> String {
        let iso = TimeText.isoLocal(epochSeconds: epoch)
        guard iso.count >= 19 else { return iso }
        let s = iso.index(iso.startIndex, offsetBy: 11), e = iso.index(s, offsetBy: characters)
        return marked(String(iso[s..<e]), epoch)
    }

    /// `text` (a local time reading of `epoch`), followed by the offset in force when the
    /// reading is repeated (the hour the clocks go back): `01:30 -04:00`.
    public static func marked(_ text: String, _ epoch: Double) -> String {
        isRepeated(epoch) ? text + " " + offsetText(epoch) : text
    }

    /// Whether local clocks read the same time at another moment too: the reading of
    /// `epoch` under another offset in force within a few hours of it is also in force then.
    public static func isRepeated(_ epoch: Double) -> Bool {
        let mine = offset(at: epoch)
        for other in [offset(at: epoch - 3 * 3600), offset(at: epoch + 3 * 3600)] where other != mine {
            if offset(at: epoch + mine - other) == other { return true }
        }
        return false
    }

    /// `+01:00`, `-04:00`, `+05:30`: the offset in force at `epoch`.
    public static func offsetText(_ epoch: Double) -> String {
        let seconds = Int(offset(at: epoch)), a = abs(seconds)
        let minutes = a / 60 % 60, hours = a / 3600
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }

    /// Seconds local time is ahead of UTC at `epoch` (negative west of Greenwich).
    static func offset(at epoch: Double) -> Double {
        guard let seconds = CalendarTime.wholeSeconds(epoch) else { return 0 }
        return Double(CalendarTime.utcOffset(epochSeconds: seconds))
    }
}

extension RecordingInputs {
    /// The files that may hold rows of local day `day` (here). Names are the local start
    /// times where the recording was made, perhaps in another zone (up to 14 h ahead of
    /// UTC or 12 h behind): kept are the files that may start within the day so widened,
    /// and the last file before them (it may run past midnight). The rows themselves are
    /// then filtered by time. (Named days only, a recording made in UTC was not found on
    /// its New York day.) Files not named by time are kept.
    public static func onDay(_ files: [String], day: String) -> [String] {
        guard let bounds = LocalDay.bounds(day) else { return files }
        var out: [String] = []
        var before: String?
        for f in files {
            guard let wall = wallClock(of: (f as NSString).lastPathComponent) else { out.append(f); continue }
            // The true start lies within [wall − 14 h, wall + 12 h].
            if wall - 14 * 3600 >= bounds.end { continue }
            if wall + 12 * 3600 < bounds.start { before = f } else { out.append(f) }
        }
        if let before { out.insert(before, at: 0) }
        return out
    }

    /// `yyyyMMddHHmmss…` read as if it were UTC, Unix seconds; nil for other names.
    static func wallClock(of name: String) -> Double? {
        let d = Array(name.utf8.prefix(14)).map { Int($0) - 0x30 }
        guard d.count == 14, d.allSatisfy({ (0...9).contains($0) }) else { return nil }
        func n(_ a: Int, _ b: Int) -> Int { d[a..<b].reduce(0) { $0 * 10 + $1 } }
        let (month, dayOfMonth) = (n(4, 6), n(6, 8))
        guard (1...12).contains(month), (1...31).contains(dayOfMonth) else { return nil }
        let days = TimeText.daysFromCivil(n(0, 4), month, dayOfMonth)
        return Double(days * 86400 + n(8, 10) * 3600 + n(10, 12) * 60 + n(12, 14))
    }
}
