import Foundation
import LinuxHardware
import MotionCore
import MotionSimulator
import Testing

@Suite("motionlog record and check, as a user runs them")
struct RecordCLITests {
    @Test func tenMinutesFastWithOneMinuteRotationGivesTenExactFiles() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "600", "--rate", "100",
                                "--rotate-time", "60", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 10)
        var lastWhen: [Source: Double] = [:]
        var aRows = 0
        for f in files {
            let text = try String(contentsOfFile: f, encoding: .utf8)
            #expect(text.hasPrefix(CSVFormat.headerLine + "\n"))
            var fileA = 0
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                let source = try #require(Source(letter: fields[0].first ?? "?"))
                let when = try #require(Double(fields[2]))
                // Every number is exactly Swift's text for its value.
                for (i, field) in fields.enumerated().dropFirst(2) where !(source == .location && i == 11) {
                    #expect(Double(field)?.description == String(field), "\(field)")
                }
                if let prev = lastWhen[source] {
                    #expect(when > prev)
                    if source == .accelerometer { #expect(abs(when - prev - 0.01) < 1e-6) }
                }
                lastWhen[source] = when
                if source == .accelerometer { fileA += 1 }
            }
            #expect(fileA == 6000)
            aRows += fileA
            let check = try Binary.run(["check", f])
            #expect(check.status == 0, "\(check.stdout)")
            // On the simulated clock a file ends when its last row is, after the start
            // (the real clock's "ended" lagged the simulated rows and came before "started").
            let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: f.replacingOccurrences(of: ".csv", with: ".json")))))
            let ended = try #require(meta.ended)
            let last = try #require(meta.file.lastWhen)
            #expect(ended > meta.recording.started && ended == TimeText.isoUTC(epochSeconds: last), "\(ended)")
        }
        #expect(aRows == 60_000)
    }

    @Test func fastRunsHaveTheSameContentEveryTime() throws {
        // The simulator is a function of time: two relative-time runs produce identical files.
        let a = Binary.temporaryDirectory(), b = Binary.temporaryDirectory()
        for dir in [a, b] {
            let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "30", "--when", "relative",
                                    "--sources", "AGM", "--out", dir, "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let fa = Binary.csvFiles(in: a), fb = Binary.csvFiles(in: b)
        #expect(fa.count == 1 && fb.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fa[0])) == Data(contentsOf: URL(fileURLWithPath: fb[0])))
    }

    @Test func checkExitsOneAndNamesLinesOfADamagedCopy() throws {
        let out = Binary.temporaryDirectory()
        #expect(try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "2", "--out", out, "--quiet"]).status == 0)
        let file = try #require(Binary.csvFiles(in: out).first)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[4] = "A,W,notanumber,1,2,3"
        lines[9] = lines[9] + ",7"
        let damaged = out + "/damaged.csv"
        try lines.joined(separator: "\n").write(toFile: damaged, atomically: false, encoding: .utf8)
        let r = try Binary.run(["check", damaged])
        #expect(r.status == 1)
        #expect(r.stdout.contains("damaged.csv:5: error:"))
        #expect(r.stdout.contains("damaged.csv:10: error:"))
        #expect(try Binary.run(["check", out + "/missing.csv"]).status == 2)
        #expect(try Binary.run(["check"]).status == 2)
    }

    @Test func usageErrorsExitTwoWithAClearMessage() throws {
        let r = try Binary.run(["record", "--board", "simulator", "--sources", "AGX", "--duration", "1"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown source 'X'"))
        let fast = try Binary.run(["record", "--board", "simulator", "--fast"])
        #expect(fast.status == 2 && fast.stderr.contains("--fast needs --duration"))
        let board = try Binary.run(["record", "--board", "nosuchboard", "--duration", "1"])
        #expect(board.status == 2 && board.stderr.contains("nosuchboard: no such board") && board.stderr.contains("available: "))
        // A negative number is the option's value, judged as such (it was "Missing value for
        // '--duration <duration>'", as if "-1" were another option).
        let negative = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "-1"])
        #expect(negative.status == 2 && negative.stderr.contains("--duration \"-1\": use seconds"), "\(negative.stderr)")
        // A board named in the config file: the message says which file and line named it.
        let config = Binary.temporaryDirectory() + "/c.yaml"
        try "board: nosuchboard\n".write(toFile: config, atomically: true, encoding: .utf8)
        let configured = try Binary.run(["record", "--config", config, "--duration", "1"])
        #expect(configured.status == 2 && configured.stderr.contains("\(config):1: board: nosuchboard: no such board"), "\(configured.stderr)")
        let rate = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "1", "--rate", "-5"])
        #expect(rate.status == 2 && rate.stderr.contains("--rate -5 is outside"), "\(rate.stderr)")
    }

    /// `--fast --scenario` without `--duration` records the scenario once, to its end.
    @Test func fastScenarioRecordsTheScenarioOnce() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--scenario", "car", "--fast", "--rate", "10",
                                "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.endedCleanly && meta.endReason == "duration")
        let seconds = SimulatorScenario.car.duration
        #expect(meta.file.rows["A"] == Int((seconds * 10).rounded(.down)))
        #expect((Int(seconds) - 2...Int(seconds)).contains(meta.file.rows["L"] ?? 0))   // 1 Hz, from the first fix
    }

    /// On the real clock the metadata's `clock` says what the kernel says of the system
    /// clock (it said "system", a synchronised clock, on a machine whose clock was not).
    @Test func theMetadataSaysWhetherTheSystemClockWasSynchronised() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--duration", "0.5", "--rate", "50", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.recording.clock == (SystemClockStatus.current().synchronised ? "system" : "system-unsynchronised"))
    }

    @Test func metadataDescribesTheRecording() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "5", "--rate", "200",
                                "--label", "T", "--out", out, "--quiet"])
        #expect(r.status == 0)
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.endedCleanly && meta.endReason == "duration")
        #expect(meta.recording.rateHz == 200 && meta.recording.label == "T" && meta.recording.board == "simulator")
        #expect(meta.file.rows["A"] == 1000)
        #expect(meta.counters.droppedRows == 0 && meta.counters.overruns == 0)
        #expect(r.stdout.contains("rows: A 1000"))
        #expect(try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")[1].hasPrefix("A,T,"))
    }

    /// Started as a shell starts it: Foundation's `Process` hands the child the test
    /// runner's blocked signals, which hid that `record` died by SIGTERM.
    @Test func realTimeRecordingStopsCleanlyOnSIGTERM() throws {
        let out = Binary.temporaryDirectory()
        let child = try ShellChild([Binary.path, "record", "--board", "simulator", "--out", out, "--quiet",
                                    "--fsync-interval", "0.2"])
        // Wait (bounded) until rows reach the file, then ask it to stop.
        #expect(RecordSignalTests.waitForRows(out))
        child.signal(SIGTERM)
        child.wait()
        #expect(child.exitCode == 0, "\(child.outcome)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.endedCleanly && meta.endReason == "stopped")
        let check = try Binary.run(["check", csv])
        #expect(check.status == 0)
        // Every A row the recorder produced is in the file (nothing lost at stop).
        #expect(meta.file.rows["A"] ?? 0 > 0)
    }
}
