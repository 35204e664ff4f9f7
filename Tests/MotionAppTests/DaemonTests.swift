import Foundation
import LinuxHardware
import Logging
@testable import MotionApp
import MotionCore
import Synchronization
import Testing
import MotionTestSupport

/// Disk space that reads as the test says: `low` once `healthyChecks` readings were given.
final class ScriptedSpace: FileSystemStats, Sendable {
    private let remaining: Mutex<Int>
    private let lowAfter: Bool
    init(healthyChecks: Int, thenLow: Bool = true) { remaining = Mutex(healthyChecks); lowAfter = thenLow }
    func space(at path: String) throws(StorageError) -> FileSystemSpace {
        let healthy = remaining.withLock { n -> Bool in
            if n > 0 { n -= 1; return true }
            return !lowAfter
        }
        return FileSystemSpace(availableBytes: healthy ? 50 << 30 : 40 << 20, totalBytes: 64 << 30)
    }
    func refill() { remaining.withLock { $0 = Int.max } }
}

/// A launcher whose sensor never starts.
struct BrokenLauncher: RecordingLauncher {
    var boardName = "broken", outputFolder = "/nonexistent", rateHz = 100
    var freeSpace: FreeSpaceGuard? = nil
    var hasGPS = false
    func makeSession(label: UInt8) throws(CommandFailure) -> RecordingSession {
        throw CommandFailure("the IMU (mpu9250) could not be started: no device at 0x68 on /dev/i2c-1", code: 1)
    }
}

/// The daemon on the simulator board, driven by scripted button edges and requests: real
/// recordings (real time, 50 Hz), real files.
@Suite("Daemon on the simulator", .serialized)
struct DaemonTests {
    typealias S = DaemonTestSupport
    let second: Int64 = 1_000_000_000

    @Test func pressThenPressMakesExactlyOneCompleteFile() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        d.handle(.button(pressed: true, at: 0))
        d.handle(.button(pressed: false, at: 100_000_000))
        #expect(d.phase == .recording)
        #expect(S.eventually { S.written(d) >= 50 })
        #expect(d.status().currentFile?.hasPrefix(out) == true)
        d.handle(.button(pressed: true, at: 10 * second))
        let stopped = d.handle(.button(pressed: false, at: 10 * second + 100_000_000))
        // The stop returns only once the files are closed.
        #expect(stopped.message == "recording stopped" && d.phase == .idle)
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 1)
        let csv = try #require(files.first)
        let meta = try S.metadata(csv)
        #expect(meta.endedCleanly && meta.endReason == "stopped" && meta.recording.board == "simulator")
        let check = try RecordingCheck.check(path: csv)
        #expect(check.isValid && check.warnings == 0)
        #expect(check.sources[.accelerometer]?.rows == meta.file.rows["A"])
        #expect(d.status().lastFiles == [csv] && d.status().recordings == 1)
    }

    @Test func theLabelButtonMarksTheRowsWhileHeld() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        d.handle(.start)
        #expect(S.eventually { S.written(d) >= 20 })
        d.handle(.labelButton(pressed: true))
        #expect(d.status().label == "T")
        var mark = S.written(d)
        #expect(S.eventually { S.written(d) >= mark + 30 })
        d.handle(.labelButton(pressed: false))
        mark = S.written(d)
        #expect(S.eventually { S.written(d) >= mark + 30 })
        d.handle(.stop)
        let csv = try #require(Binary.csvFiles(in: out).first)
        #expect(try S.labelRuns(csv) == "WTW")
        #expect(try S.labelRuns(csv, source: "G") == "WTW")
    }

    @Test func aLongPressStopsThenRunsTheShutdownCommandOnClosedFiles() throws {
        let out = Binary.temporaryDirectory()
        let shutdown = RecordingShutdown(folder: out)
        let d = try S.daemon(out: out, shutdown: shutdown, shutdownCommand: "systemctl poweroff")
        d.handle(.start)
        #expect(S.eventually { S.written(d) >= 20 })
        d.handle(.button(pressed: true, at: 50 * second))
        #expect(d.nextDeadline == 53 * second)
        d.handle(.tick(52 * second))
        #expect(d.phase == .recording)
        d.handle(.tick(53 * second))
        #expect(S.eventually { !shutdown.calls.isEmpty })
        #expect(shutdown.calls.map(\.command) == ["systemctl poweroff"])
        #expect(shutdown.calls.first?.closedCleanly == true)
        #expect(d.phase == .shuttingDown && d.ledPattern == .busy)
        d.handle(.button(pressed: false, at: 54 * second))
        #expect(d.phase == .shuttingDown)
        let csv = try #require(Binary.csvFiles(in: out).first)
        #expect(try S.metadata(csv).endReason == "stopped")
    }

    @Test func aFailingShutdownCommandShowsTheError() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out, shutdown: RecordingShutdown(failure: "exit status 1"), shutdownCommand: "false")
        d.handle(.button(pressed: true, at: 0))
        d.handle(.tick(3 * second))
        #expect(S.eventually { d.phase == .error })
        #expect(d.status().message == "exit status 1" && d.ledPattern == .error)
    }

    /// A recording another `record` left unfinished (killed) is repaired when the daemon
    /// starts its next recording, not only when the daemon itself starts.
    @Test func eachStartRecoversWhatWasLeftUnfinished() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "3", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        // As a SIGKILL leaves it: metadata not finished, a torn last line.
        let json = URL(fileURLWithPath: String(csv.dropLast(4)) + ".json")
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: json)))
        meta.endedCleanly = false
        meta.endReason = "recording"
        try Data(meta.encoded()).write(to: json)
        let handle = try #require(FileHandle(forWritingAtPath: csv))
        handle.seekToEndOfFile()
        handle.write(Data("A,W,1795751747.5,0.1".utf8))
        try handle.close()
        #expect(d.handle(.start).accepted)
        d.handle(.stop)
        let after = try RecordingMetadata.decode(Array(try Data(contentsOf: json)))
        #expect(after.ending == .recovered, "\(after.endReason)")
        #expect(try Binary.run(["check", csv]).status == 0)
    }

    @Test func noRecordingStartsBelowTheFreeSpaceReserve() throws {
        let out = Binary.temporaryDirectory()
        let space = ScriptedSpace(healthyChecks: 0)
        let d = try S.daemon(out: out, freeSpace: FreeSpaceGuard(path: out, minimumFreeBytes: 100 << 20, stats: space))
        let refused = d.handle(.start)
        #expect(!refused.accepted && refused.message?.contains("to keep the 100.0 MB reserve") == true)
        #expect(d.phase == .error && d.ledPattern == .error)
        #expect(Binary.csvFiles(in: out).isEmpty)
        let status = d.status()
        #expect(status.state == "error" && status.freeSpace.availableBytes == 40 << 20 && status.freeSpace.minimumBytes == 100 << 20)
        // Space freed: the next start records.
        space.refill()
        #expect(d.handle(.start).accepted && d.phase == .recording)
        d.handle(.stop)
        #expect(Binary.csvFiles(in: out).count == 1)
    }

    @Test func aRecordingStopsCleanlyWhenTheCardRunsLow() throws {
        let out = Binary.temporaryDirectory()
        // The start's check and two monitor checks see space; then the card is low.
        let space = ScriptedSpace(healthyChecks: 3)
        let d = try S.daemon(out: out, freeSpace: FreeSpaceGuard(path: out, minimumFreeBytes: 100 << 20, stats: space))
        #expect(d.handle(.start).accepted)
        #expect(S.eventually { d.phase == .error })
        let status = d.status()
        #expect(status.message?.contains("recording stops with 100.0 MB still free, to keep the 100.0 MB reserve (min_free_space)") == true,
                "\(status.message ?? "")")
        #expect(d.ledPattern == .error)
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try S.metadata(csv)
        #expect(meta.endedCleanly && meta.endReason == "low-disk-space")
        let check = try RecordingCheck.check(path: csv)
        #expect(check.isValid && check.warnings == 0)
    }

    @Test func aRecordingThatCannotStartIsReportedAsAnError() {
        let d = Daemon(launcher: BrokenLauncher(), settings: .init(), shutdown: RecordingShutdown(), log: Logger(label: "test"))
        let step = d.handle(.start)
        #expect(!step.accepted && step.message?.contains("no device at 0x68") == true)
        #expect(d.phase == .error && d.status().message?.contains("mpu9250") == true)
    }

    @Test func theLoopDrivesTheDaemonFromScriptedButtonsAndShowsTheLED() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        let gpio = ScriptedGPIO()
        let loop = DaemonLoop(daemon: d, gpio: gpio, log: Logger(label: "test"))
        loop.start()
        #expect(S.eventually { gpio.ledHistory.first == true })   // the idle heartbeat
        gpio.click(.main, at: SystemClock.monotonicNanos())
        #expect(S.eventually { d.phase == .recording && S.written(d) >= 25 })
        #expect(S.eventually { gpio.ledIsOn })
        gpio.push(ButtonEvent(button: .label, pressed: true, timestampNanos: SystemClock.monotonicNanos()))
        #expect(S.eventually { d.status().label == "T" })
        gpio.push(ButtonEvent(button: .label, pressed: false, timestampNanos: SystemClock.monotonicNanos()))
        #expect(S.eventually { d.status().label == "W" })
        gpio.click(.main, at: SystemClock.monotonicNanos())
        #expect(S.eventually { d.phase == .idle })
        loop.stop()
        #expect(!gpio.ledIsOn)
        #expect(gpio.consumedEvents == 6)
        #expect(Binary.csvFiles(in: out).count == 1)
        #expect(try S.metadata(Binary.csvFiles(in: out)[0]).endedCleanly)
    }

    @Test func theLEDAndStatusShowTheGPS() throws {
        let without = try S.daemon(out: Binary.temporaryDirectory(), extra: ["--sources", "AGM"])
        without.handle(.start)
        #expect(without.ledPattern == .recording && without.status().gps.fix == "no GPS")
        without.handle(.stop)
        let with = try S.daemon(out: Binary.temporaryDirectory())
        #expect(with.status().gps.fix == "not recording" && with.ledPattern == .idle)
        with.handle(.start)
        #expect(S.eventually { with.status().gps.fix == "3D fix" })
        #expect(with.ledPattern == .recording && with.status().gps.mode == 3)
        with.handle(.stop)
        #expect(with.ledPattern == .idle)
    }

    @Test func stoppingForExitClosesTheRunningRecording() throws {
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        d.handle(.start)
        #expect(S.eventually { S.written(d) >= 10 })
        d.stopForExit()
        let csv = try #require(Binary.csvFiles(in: out).first)
        #expect(try S.metadata(csv).endedCleanly)
        d.stopForExit()   // nothing running: harmless
        #expect(d.phase == .idle)
    }
}
