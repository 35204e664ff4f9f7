import ArgumentParser
import Foundation
import MotionAnalysis
import MotionCore

/// `motionlog summary FILE|DIR... [--json] [--day YYYY-MM-DD]`: what a recording holds.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Summarise recordings: track, stops and moves with activity, movement, health.",
        discussion: """
            Reads the files in one streaming pass (a folder stands for its .csv files; all files \
            given form one timeline, in time order when all are named by time, as the recorder \
            names them; otherwise in the order given). Prints a report in local time, or with \
            --json one JSON object (schema in docs/ANALYSIS.md). Rules and thresholds: docs/ANALYSIS.md.
            Exit status: 0 summarised, 1 nothing to summarise (no data rows, none on that day), 2 usage or I/O error (also folders without recordings, as for check).
            """)

    @Argument(help: "Recording files (.csv) or folders of them.")
    var paths: [String]

    @Flag(name: .long, help: "Print one JSON object instead of the report.")
    var json = false

    @Option(name: .long, help: "Only this local day (YYYY-MM-DD).")
    var day: String?

    @Option(name: .long, help: "Stop radius in metres (default 100, trackintel).")
    var stopRadius: Double?

    @Option(name: .long, help: "Shortest stop in minutes (default 5, trackintel).")
    var stopMinutes: Double?

    @Flag(name: .long, inversion: .prefixedNo,
          help: "Whether staying put after the last departure, or before a break (GPS lost for 15 min, a jump), for the shortest stop's time, is a stop (trackintel's include_last).")
    var finalStop = true

    @Option(name: .long, help: "Longest stretch without data kept inside a move, minutes (default 10).")
    var gapMinutes: Double?

    @Option(name: .long, help: "Movement interval in minutes (default 10).")
    var interval: Double?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one recording file or folder") }
        if let day, LocalDay.bounds(day) == nil { throw ValidationError("--day \(day): expected a date as YYYY-MM-DD") }
        for (name, v) in [("--stop-radius", stopRadius), ("--stop-minutes", stopMinutes), ("--gap-minutes", gapMinutes),
                          ("--interval", interval)] {
            if let v, !(v.isFinite && v > 0 && v < 1e6) { throw ValidationError("\(name) \(v): use a number above 0 and below 1000000") }
        }
        // Below a second an interval holds a row or two ("Movement per 0.1 s", every sum 0.0).
        if let interval, interval * 60 < 1 {
            throw ValidationError("--interval \(interval): the interval is in minutes; use at least 1 s (0.0167)")
        }
    }

    func run() throws {
        var options = AnalysisOptions()
        if let stopRadius { options.stopRadiusM = stopRadius }
        if let stopMinutes { options.stopMinSeconds = stopMinutes * 60 }
        if let gapMinutes { options.gapSeconds = gapMinutes * 60 }
        options.finalStop = finalStop
        if let interval { options.movementIntervalS = interval * 60 }
        var files: [String]
        // Nothing to read at all (empty folders) is exit 2, as for `check`; a day without
        // recordings in folders that have some is "nothing to summarise", exit 1.
        do { files = RecordingInputs.readingOnceSaying(try RecordingInputs.resolveSome(paths)) } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        if let day, let bounds = LocalDay.bounds(day) {
            options.from = bounds.start; options.to = bounds.end
            files = RecordingInputs.onDay(files, day: day)
        }
        if let day, files.isEmpty {
            throw CommandFailure("no recordings (.csv) in \(paths.joined(separator: ", ")) on \(day) (local time): nothing to summarise (without --day the summary shows the days they cover)", code: 1)
        }
        let result: AnalysisResult
        let meter = ProgressMeter(verb: "reading", paths: files)
        defer { meter.finish() }
        do { result = try RecordingAnalyzer.summarizing(files, options: options, progress: meter.told) } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        let summary = result.summary
        meter.finish()
        // Nothing to summarise: only the error, no report of nothing ("no data rows") beside it.
        if summary.start == nil, let day {
            // Named as given (a folder), with the files that could hold the day and were read.
            let read = files.count == 1 ? files[0] : "\(CountText.of(files.count, "file")) that could hold it"
            throw CommandFailure("no data rows on \(day) (local time) in \(paths.joined(separator: ", ")) (read \(read)): nothing to summarise (without --day the summary shows the days they cover)", code: 1)
        }
        if summary.start == nil {
            throw CommandFailure("no data rows in \(files.joined(separator: ", ")): nothing to summarise (empty or not a recording? see `motionlog check`)", code: 1)
        }
        if json {
            FileHandle.standardOutput.write(Data(SummaryJSON.encode(summary, pretty: true)))
        } else {
            // The files the report is of: with --day, those with rows on the day (the file
            // before it is read in case it runs into the day, and was named when it did not).
            let of = day == nil || result.filesWithRows.isEmpty ? files : result.filesWithRows
            Console.out(SummaryReport.text(summary, title: of.count == 1 ? of[0] : "\(of[0]) … (\(of.count) files)"))
        }
    }
}
