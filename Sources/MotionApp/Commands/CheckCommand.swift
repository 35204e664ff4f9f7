import ArgumentParser
import MotionAnalysis
import MotionCore
import MotionSystem

/// `motionlog check FILE|DIR...`: validates recordings and summarises them.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate recording files against the format and summarise them.",
        discussion: """
            Checks the header, field counts per source, numbers and their ranges, labels and \
            that When strictly increases per source (docs/FORMAT.md). Binary data is one defect \
            with its byte range, and the check goes on at the next valid row (a file that is \
            binary from its start, or for more than 1 MiB, stops it); a line longer than 1024 bytes is an error at once. Prints per-source row counts, time span and measured rate, and \
            every problem with its line number (the first 1000 per file; then how many more \
            errors and warnings, all counted in the verdict). A torn last line (power cut) is a warning.
            Exit status: 0 all files valid, 1 a file is invalid, 2 usage or I/O error (also a folder without recordings).
            """)

    @Argument(help: "Recording files (.csv) or folders of them.")
    var files: [String]

    @Flag(name: .long, help: "Print only problems and the verdict.")
    var quiet = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file to check") }
    }

    func run() throws {
        var invalid = false, ioError = false
        // A folder stands for its .csv files, in time order (as `summary` reads it); a
        // file is checked as given, and one that cannot be read is reported in its turn.
        let files = RecordingInputs.expandingFolders(self.files) { error in
            Console.error("\(error)")
            ioError = true
        }
        let progress = ProgressMeter(verb: "checking", paths: files)
        var bytesBefore: Int64 = 0
        var previous: RecordingMetadata?
        for path in files {
            let report: CheckReport
            progress.begin(path, bytesBefore: bytesBefore)
            var fileBytes: Int64 = 0
            defer { bytesBefore += fileBytes }
            do {
                report = try RecordingCheck.check(path: path) { fileBytes = $0; progress.update($0) }
                progress.finish()
            } catch {
                progress.finish()
                Console.error("\(error)")
                ioError = true
                // There, if unreadable: no "part missing" for the next file.
                previous = RecordingFiles.readMetadata(besides: path)
                continue
            }
            for p in report.problems { Console.out("\(path):\(p.line): \(p.severity.rawValue): \(p.message)") }
            if report.unlisted > 0 {
                Console.out("\(path): \(CountText.of(report.unlisted, "more problem")) not listed (\(CountText.of(report.unlistedErrors, "error")), "
                            + "\(CountText.of(report.unlistedWarnings, "warning"))); the first \(report.problems.count) are above")
            }
            let verdict = report.isValid ? "valid" : "INVALID (\(CountText.of(report.errors, "error")))"
            let warn = report.warnings > 0 ? ", " + CountText.of(report.warnings, "warning") : ""
            Console.out("\(path): \(verdict)\(warn)")
            let metadata = RecordingFiles.readMetadata(besides: path)
            // Valid rows, but not closed (or recovered): the owner should know, as `summary` says.
            if let metadata, metadata.ending != .clean {
                Console.out("  " + FileEndingText.sentence(metadata, subject: "The file"))
            }
            // Parts of one recording checked in turn: a part missing between two is said, as
            // `summary` says it (every file was "valid" and nothing more).
            if let metadata, let before = previous, before.recording.id == metadata.recording.id,
               metadata.file.index > before.file.index + 1 {
                let n = metadata.file.index - before.file.index - 1
                Console.out("  The recording's part\(n == 1 ? " \(before.file.index + 1) is" : "s \(before.file.index + 1)–\(metadata.file.index - 1) are") missing before this file (after \(before.file.name)): deleted or not copied?")
            }
            previous = metadata
            if !quiet {
                Console.out(Self.summary(report))
                if let step = ClockStep(metadata) { Console.out(Self.clockLine(step)) }
            }
            if !report.isValid { invalid = true }
        }
        if ioError { throw CommandFailure("", code: 2) }
        if invalid { throw CommandFailure("", code: 1) }
    }

    /// The spans above are of the When as written: say that the IMU's include a clock step.
    static func clockLine(_ step: ClockStep) -> String {
        "  clock stepped to GPS time at \(TimeText.isoLocal(epochSeconds: step.firstCorrectedWhen)) by +\(Text.duration(step.seconds)): "
            + "the IMU spans above include it; `motionlog summary` places the rows before it"
    }

    static func summary(_ report: CheckReport) -> String {
        var lines: [String] = []
        for s in Source.canonicalOrder {
            guard let st = report.sources[s] else { continue }
            let rate = st.measuredRate.map { fixed($0, 2) + " Hz" } ?? "-"
            lines.append("  \(s)  \(pad(String(st.rows), 9)) rows  \(pad(fixed(st.span, 2), 10)) s  \(pad(rate, 12))")
        }
        if lines.isEmpty { lines.append("  (no data rows)") }
        return lines.joined(separator: "\n")
    }
}

func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }

/// Fixed-point text for summaries (not for the data files).
func fixed(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite, abs(v) < 1e12 else { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (abs(v) * scale).rounded()
    let whole = Int64(r / scale), frac = Int64(r.truncatingRemainder(dividingBy: scale))
    var f = String(frac)
    while f.count < digits { f = "0" + f }
    return (v < 0 && r != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + f : "")
}
