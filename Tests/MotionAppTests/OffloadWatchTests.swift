import Foundation
import Logging
@testable import MotionApp
import MotionConfig
import MotionOffload
import Synchronization
import Testing

/// The daemon follows a USB offload through its progress file: `status` and the LED.
@Suite("Daemon and USB offload")
struct OffloadWatchTests {
    typealias S = DaemonTestSupport
    let now = 1_763_735_405.0

    func progress(_ state: OffloadProgress.State, age: Double, target: String = "/dev/sda1") -> OffloadProgress {
        OffloadProgress(state: state, target: target, recordingsDone: 3, recordingsTotal: 10, bytesDone: 45, bytesTotal: 100,
                        message: state == .done ? "Copied 10 recordings (1.2 GB)." : nil, pid: 4242, updated: now - age)
    }

    @Test func whatTheDaemonShowsOfAnOffload() {
        let alive: (Int32) -> Bool = { _ in true }, dead: (Int32) -> Bool = { _ in false }
        let plugged: (String) -> Bool = { _ in true }, pulled: (String) -> Bool = { _ in false }
        #expect(OffloadWatch.shown(progress(.copying, age: 1), now: now, deviceExists: plugged, processAlive: alive)?.state == .copying)
        // A copy whose process died without a word was interrupted.
        let killed = OffloadWatch.shown(progress(.copying, age: 60), now: now, deviceExists: plugged, processAlive: dead)
        #expect(killed?.state == .error && killed?.message?.contains("interrupted") == true)
        #expect(OffloadWatch.shown(progress(.copying, age: 60), now: now, deviceExists: plugged, processAlive: alive)?.state == .copying)
        // "Done" until the stick is pulled out, at most ten minutes.
        #expect(OffloadWatch.shown(progress(.done, age: 5), now: now, deviceExists: plugged, processAlive: dead)?.state == .done)
        #expect(OffloadWatch.shown(progress(.done, age: 5), now: now, deviceExists: pulled, processAlive: dead) == nil)
        #expect(OffloadWatch.shown(progress(.done, age: 601), now: now, deviceExists: plugged, processAlive: dead) == nil)
        #expect(OffloadWatch.shown(progress(.error, age: 5, target: "/media/stick"), now: now, deviceExists: pulled, processAlive: dead)?.state == .error)
    }

    @Test func statusAndLEDFollowTheProgressFile() throws {
        let out = Binary.temporaryDirectory()
        let file = out + "/offload.json"
        var settings = Daemon.Settings()
        settings.offloadStatusFile = file
        let log = Logger(label: "test")
        let daemon = Daemon(launcher: SetupLauncher(setup: try S.simulatorSetup(out: out), freeSpace: nil, log: log),
                            settings: settings, shutdown: RecordingShutdown(), log: log)
        daemon.offload.refresh()
        #expect(daemon.ledPattern == .idle && daemon.status().offload == nil)

        let t = Date().timeIntervalSince1970
        OffloadProgress(state: .copying, target: "/dev/sda1", recordingsDone: 1, recordingsTotal: 4, filesDone: 5, filesTotal: 20,
                        bytesDone: 30, bytesTotal: 120, pid: getpid(), updated: t).write(to: file)
        daemon.offload.refresh()
        #expect(daemon.ledPattern == .offloading)
        let status = daemon.status()
        #expect(status.offload?.recordingsTotal == 4)
        #expect(status.rendered().contains("copying to /dev/sda1: 1 of 4 recordings (5 of 20 files), 25 %"), "\(status.rendered())")

        // Done, on a device that exists: the LED says the stick may be pulled out.
        OffloadProgress(state: .done, target: "/dev/null", recordingsDone: 4, recordingsTotal: 4, bytesDone: 120,
                        bytesTotal: 120, message: "Copied 4 recordings.", pid: getpid(), updated: t).write(to: file)
        daemon.offload.refresh()
        #expect(daemon.ledPattern == .offloadDone)
        // Incomplete (recordings did not fit): the stick may be pulled out, but the LED and
        // `status` say the copy is not whole.
        OffloadProgress(state: .incomplete, target: "/dev/null", recordingsDone: 0, recordingsTotal: 1, filesDone: 4,
                        filesTotal: 10, bytesDone: 40, bytesTotal: 100,
                        message: "Copied 1 recording (4 files, 40 B), only in part. Did not fit (6 files of 1 recording, 60 B in all; use a larger or emptier stick): A (60 B)",
                        pid: getpid(), updated: t).write(to: file)
        daemon.offload.refresh()
        #expect(daemon.ledPattern == .offloadIncomplete)
        let incomplete = daemon.status().rendered()
        #expect(incomplete.contains("INCOMPLETE (/dev/null, may be pulled out; 0 of 1 recording (4 of 10 files), 40 % copied): Copied 1 recording"),
                "\(incomplete)")
        #expect(!incomplete.contains("100 %"))
        OffloadProgress(state: .done, target: "/dev/null", recordingsDone: 4, recordingsTotal: 4, bytesDone: 120,
                        bytesTotal: 120, message: "Copied 4 recordings.", pid: getpid(), updated: t).write(to: file)
        daemon.offload.refresh()
        // The status travels as JSON over the control socket.
        let decoded = try JSONDecoder().decode(DaemonStatus.self, from: JSONEncoder().encode(daemon.status()))
        #expect(decoded.offload?.state == .done)
    }

    /// blkid, mount and umount as scripted; umount notes the status file's state then.
    final class StickRunner: ProcessRunning {
        let statusFile: String
        let atUnmount = Mutex<[OffloadProgress.State?]>([])
        init(statusFile: String) { self.statusFile = statusFile }
        func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
            switch executable {
            case "blkid": return ProcessResult(status: 0, output: "TYPE=ext4\nLABEL=MOTIONLOG\n")
            case "umount":
                let state = OffloadProgress.read(from: statusFile)?.state
                atUnmount.withLock { $0.append(state) }
                return ProcessResult(status: 0, output: "")
            default: return ProcessResult(status: 0, output: "")
            }
        }
    }

    /// The LED may say "pull it out" (done, incomplete) only once the stick is unmounted:
    /// the final state was written before the unmount, while the stick was still mounted.
    @Test func theStickIsSaidPullableOnlyAfterItIsUnmounted() throws {
        let dir = Binary.temporaryDirectory()
        let source = dir + "/rec", parent = dir + "/run", device = dir + "/sda1", status = dir + "/offload.json"
        for d in [source, parent] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        FileManager.default.createFile(atPath: device, contents: Data())
        let r = try Binary.run(["record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--fast",
                                "--duration", "2", "--out", source, "--quiet", "--config", S.emptyConfig()])
        #expect(r.status == 0, "\(r.stderr)")
        let runner = StickRunner(statusFile: status)
        let command = try OffloadCommand.parse([device])
        try command.offloadDevice(device, source: source, options: FolderOffloadOptions(), host: "logger",
                                  offload: OffloadSettings(), status: status, runner: runner, mountParent: parent)
        #expect(runner.atUnmount.withLock { $0 } == [.copying])
        #expect(OffloadProgress.read(from: status)?.state == .done)
    }

    @Test func offloadPatternsAreTellableApart() {
        let ms: Int64 = 1_000_000
        #expect(LEDPattern.offloading.level(at: 0) == (true, 100 * ms))
        #expect(LEDPattern.offloading.level(at: 260 * ms).on)
        #expect(LEDPattern.offloadDone.level(at: 1900 * ms) == (false, 100 * ms))
        #expect(Set([LEDPattern.offloading, .offloadDone, .offloadIncomplete, .error, .recording, .idle]
                        .map { $0.segments.map(\.ms) }).count == 6)
        #expect(LEDPattern.offloadIncomplete.level(at: 1450 * ms) == (false, 50 * ms))
    }
}
