import ArgumentParser
import Foundation
import MotionAnalysis
import MotionCore

/// `motionlog import TRACK.gpx... [--out DIR]`: turns GPX tracks (from a bike computer, a
/// phone app, a watch, or another logger) into recordings of `L` rows, so that `summary`,
/// `export` and the web page treat them as they treat the logger's own.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn GPX tracks into recordings of L rows (for summary, export, the web page).",
        discussion: """
            Each GPX file becomes one recording: a CSV of L rows named by the local time of its \
            first point (yyyyMMddHHmmss.csv, as the logger names its files) and its metadata \
            JSON, in --out (default: the GPX's own folder). Track points give latitude, \
            longitude, elevation and time; speed and course where the file has them (GPX 1.0, or \
            Garmin's extensions); the fix mode from <fix>, else 3-D where a point has an \
            elevation. Points without a time or position, with <fix>none</fix>, or not later than \
            the point before are skipped and counted. Existing files are never replaced without \
            --force; two GPX files that start in the same second are NAME and NAME-1; \
            both files are written to temporary files and renamed when complete. \
            Memory does not grow with the file. See docs/FORMAT.md ("Imported recordings").
            Exit status: 0 every file imported; 1 a file was damaged (its points up to the \
            damage were imported); 2 usage or I/O error, or a file with no point to import.
            """)

    @Argument(help: "GPX files to import.")
    var inputs: [String]

    @Option(name: [.short, .customLong("out")], help: "Folder for the recordings (default: beside each GPX file).")
    var out: String?

    @Option(name: .long, help: "Label letter of the rows.")
    var label: String = "W"

    @Flag(name: .long, help: "Replace a recording of the same name.")
    var force = false

    func validate() throws {
        guard label.utf8.count == 1, let c = label.utf8.first, c >= 0x41, c <= 0x5A else {
            throw ValidationError("--label \(label): one uppercase letter, e.g. W")
        }
        if let out {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: out, isDirectory: &folder), folder.boolValue else {
                throw ValidationError("--out \(out): no such folder (create it first)")
            }
        }
    }

    func run() throws {
        var worst: Int32 = 0
        var written: Set<String> = []
        var seen: [SafeOutputFile.Identity] = []
        for input in inputs {
            // A file given twice (another spelling, a link) is imported once.
            if let id = SafeOutputFile.identity(of: input) {
                if seen.contains(id) { Console.error("\(input): given more than once, imported once"); continue }
                seen.append(id)
            }
            do {
                let damaged = try importOne(input, written: &written)
                if damaged { worst = max(worst, 1) }
            } catch {
                Console.error(error.message)
                worst = 2
            }
        }
        if worst != 0 { throw CommandFailure("", code: worst) }
    }

    /// Imports one file; true when it was damaged (imported up to the damage).
    /// `written`: the CSVs this run wrote so far.
    func importOne(_ input: String, written: inout Set<String>) throws(CommandFailure) -> Bool {
        // First pass: the first usable point names the recording (the rows are then
        // written in one more pass, so memory stays bounded).
        var found: LocationFix?
        var firstCounts = GPXReader.Counts()
        do {
            firstCounts = try GPXReader.read(path: input) { fix in found = fix; throw FirstPointFound() }
        } catch is FirstPointFound {
        } catch { throw CommandFailure("\(error)", code: 2) }
        guard let first = found else { throw CommandFailure(Self.nothingToImport(input, firstCounts), code: 2) }
        let folder = out ?? (input as NSString).deletingLastPathComponent
        let stem = (folder.isEmpty ? "." : folder) + "/" + TimeText.fileBase(epochSeconds: first.when)
        // Two GPX files starting in the same second (a ride exported from two apps, in one
        // run or two) are two recordings: the later one takes the next name, as the recorder
        // names a second file begun in the same second (`-1`). With --force it replaced the
        // first, without it was refused as "imported before", which it never was.
        let gpxName = (input as NSString).lastPathComponent
        func taken(_ base: String) -> Bool {
            if written.contains(base + ".csv") { return true }
            return RecordingFiles.readMetadata(besides: base + ".csv").map { ImportedRecording.isImport($0, ofAnotherFileThan: gpxName) } ?? false
        }
        var base = stem, n = 0
        while taken(base) { n += 1; base = stem + "-\(n)" }
        let csvPath = base + ".csv", metadataPath = base + ".json"
        // --force replaces an earlier import, never a recording of the logger's that happens
        // to have the same name (the same ride, logged by both).
        if force {
            try ForcedReplacement.check(csvPath, by: "import", instead: "import into another folder with --out DIR") {
                ImportedRecording.isImport($0)
            }
        }
        let csvFile: SafeOutputFile, metadataFile: SafeOutputFile
        do {
            csvFile = try SafeOutputFile(path: csvPath, inputs: [input], overwrite: force)
            metadataFile = try SafeOutputFile(path: metadataPath, inputs: [input], overwrite: force)
        } catch {
            // The output's name is the track's start time, not an -o of a file name.
            // --force is offered only where it would work: over an earlier import.
            let earlierImport = RecordingFiles.readMetadata(besides: csvPath).map(ImportedRecording.isImport) ?? false
            let text = error.kind != .exists ? "\(error)"
                : earlierImport ? "\(error.path) exists (imported before): pass --force to replace that import, or import into another folder with --out DIR"
                : "\(error.path) exists and is not an earlier import (a recording that started in the same second?): import into another folder with --out DIR"
            throw CommandFailure(text, code: 2)
        }
        var rows = ImportedRows(label: label.utf8.first ?? 0x57, output: csvFile)
        let counts: GPXReader.Counts
        do {
            try csvFile.write(CSVFormat.headerBytes)
            counts = try GPXReader.read(path: input) { fix in try rows.add(fix) }
            try rows.flush()
        } catch { throw CommandFailure("\(error)", code: 2) }
        guard counts.fixes > 0, let firstWhen = rows.firstWhen, let lastWhen = rows.lastWhen else {
            throw CommandFailure(Self.nothingToImport(input, counts), code: 2)
        }
        let metadata = Self.metadata(input: input, csvName: (csvPath as NSString).lastPathComponent, counts: counts,
                                     first: firstWhen, last: lastWhen, bytes: csvFile.bytesWritten, label: label)
        do {
            try metadataFile.write(metadata.encoded())
            try SafeOutputFile.commitRecording(csv: csvFile, metadata: metadataFile)
        } catch { throw CommandFailure("\(error)", code: 2) }
        written.insert(csvPath)
        Console.out("\(input) → \(csvPath): \(counts.fixes) fix\(counts.fixes == 1 ? "" : "es"), "
                    + "\(Text.duration(lastWhen - firstWhen))" + (Self.skippedText(counts).map { "; skipped: \($0)" } ?? ""))
        if let damage = counts.stoppedEarly { Console.error("\(input): \(damage)") }
        return counts.stoppedEarly != nil
    }

    private struct FirstPointFound: Error {}

    static func nothingToImport(_ input: String, _ c: GPXReader.Counts) -> String {
        var why = "\(input): no track point with a time and a position: nothing imported"
        if c.routePoints > 0 || c.waypoints > 0 {
            let routes = "\(c.routePoints) route point\(c.routePoints == 1 ? "" : "s")"
            let waypoints = "\(c.waypoints) waypoint\(c.waypoints == 1 ? "" : "s")"
            why += " (it holds \(routes) and \(waypoints), which carry no track: a planned route, not a recorded one)"
        }
        if let s = skippedText(c) { why += "; skipped: \(s)" }
        if let damage = c.stoppedEarly { why += "; \(damage)" }
        return why
    }

    /// `3 without a time, 12 not after the point before`, nil when none was skipped.
    static func skippedText(_ c: GPXReader.Counts) -> String? {
        let parts = [(c.withoutTime, "without a time"), (c.badTime, "with an unreadable time"),
                     (c.badPosition, "without a valid position"), (c.noFix, "marked <fix>none</fix>"),
                     (c.notAfterPrevious, "not after the point before")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    static func metadata(input: String, csvName: String, counts c: GPXReader.Counts, first: Double, last: Double,
                         bytes: Int64, label: String) -> RecordingMetadata {
        let name = (input as NSString).lastPathComponent
        var notes = ["imported by motionlog import \(MotionLogCommand.version) from \(name)"
                     + (c.creator.map { " (written by \($0))" } ?? "")
                     + ": GPX has no eph, epv or climb (nan); speed and course only where the file gives them"]
        if c.modeFromElevation > 0 {
            notes.append("\(CountText.of(c.modeFromElevation, "point")) had no <fix>: mode 3 where \(c.modeFromElevation == 1 ? "it has" : "they have") an elevation, 2 where not")
        }
        if let s = skippedText(c) { notes.append("points skipped: \(s)") }
        if let damage = c.stoppedEarly { notes.append(damage) }
        let recording = RecordingDescription(
            id: UUID().uuidString, board: ImportedRecording.board, boardDescription: "GPX file \(name)",
            sensor: SensorInfo(model: "none"), gps: ImportedRecording.source(name), deviceMotion: nil, rateHz: 0, sources: "L",
            label: label, whenMode: .epoch, startEpoch: first, started: TimeText.isoUTC(epochSeconds: first),
            clock: "unknown", rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 0, bufferRows: 0, notes: notes)
        var file = RecordingMetadata.FileSection(name: csvName, index: 1, previous: nil)
        file.firstWhen = first
        file.lastWhen = last
        file.startLocal = TimeText.isoLocal(epochSeconds: first)
        file.rows = ["L": c.fixes]
        file.bytes = bytes
        return RecordingMetadata(software: .init(version: MotionLogCommand.version), recording: recording, file: file,
                                 counters: CounterSnapshot(), endedCleanly: true, endReason: ImportedRecording.endReason,
                                 ended: TimeText.isoUTC(epochSeconds: Date().timeIntervalSince1970))
    }
}

/// The `L` rows of an import, written to the output 64 KiB at a time.
struct ImportedRows {
    let label: UInt8
    let output: SafeOutputFile
    var bytes: [UInt8] = []
    var firstWhen: Double?
    var lastWhen: Double?

    init(label: UInt8, output: SafeOutputFile) {
        self.label = label
        self.output = output
        bytes.reserveCapacity(1 << 16 + 512)
    }

    mutating func add(_ fix: LocationFix) throws {
        RowEncoder.append(Row(fix: fix, label: label), to: &bytes)
        if firstWhen == nil { firstWhen = fix.when }
        lastWhen = fix.when
        if bytes.count >= 1 << 16 { try flush() }
    }

    mutating func flush() throws {
        try output.write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
