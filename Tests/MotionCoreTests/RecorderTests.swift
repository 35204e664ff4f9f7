import Foundation
import Logging
import MotionCore
import MotionMath
import Testing

/// A scripted IMU: a known value per tick, optionally raising a stop after N ticks.
final class ScriptedSensor: MotionSensor {
    var health = SensorHealth()
    var info: SensorInfo { SensorInfo(model: "scripted") }
    let stopAfter: Int64?
    var stop: StopSignal?
    private(set) var reads: [Int64] = []
    init(stopAfter: Int64? = nil, stop: StopSignal? = nil) { self.stopAfter = stopAfter; self.stop = stop }
    func start(rateHz: Int) throws {}
    func read(at tick: Tick) -> MotionReading {
        reads.append(tick.index)
        if let n = stopAfter, tick.index + 1 == n { stop?.request() }
        let v = Double(tick.index)
        // The magnetometer only every other tick, as a slower chip would deliver.
        return MotionReading(accel: Vector3(v, 0, -1), gyro: Vector3(0, v, 0), mag: tick.index % 2 == 0 ? Vector3(20, 0, -40) : nil)
    }
}

/// A scripted GPS: one fix per whole second of elapsed time, arriving 0.3 s late; keeps one held at stop.
final class ScriptedGPS: LocationSource {
    var health = LocationHealth()
    private var next = 0.0
    let holdsFixAtStop: Bool
    init(holdsFixAtStop: Bool = true) { self.holdsFixAtStop = holdsFixAtStop }
    func start() {}
    func poll(at tick: Tick, _ emit: (LocationFix) -> Void) {
        while next + 0.3 <= tick.elapsed {
            emit(LocationFix(when: tick.epoch - tick.elapsed + next, latitude: 52 + next / 1000, longitude: 13, mode: 3))
            next += 1
        }
    }
    func finish(_ emit: (LocationFix) -> Void) {
        if holdsFixAtStop { emit(LocationFix(when: 1e10, latitude: 0, longitude: 0, mode: 2)) }
    }
}

@Suite("Recorder pipeline")
struct RecorderTests {
    func record(_ cfg: RecorderConfiguration, sensor: MotionSensor, location: LocationSource? = nil,
                directory: String) throws -> RecordingSummary {
        let clock = SimulatedClock(epoch: 1_763_735_405_000_000_000)
        let recorder = Recorder(configuration: cfg, clock: clock, sensor: sensor, location: location, estimator: nil,
                                directory: try DiskDirectory(path: directory), log: Logger(label: "test"))
        return try recorder.run()
    }

    @Test func everyRowProducedBeforeAStopIsOnDiskWhenRunReturns() throws {
        let dir = temporaryDirectory()
        // The stop arrives mid-recording (during tick 1233 of an open-ended run).
        let sensor = ScriptedSensor(stopAfter: 1234)
        let cfg = RecorderConfiguration(rateHz: 200, sources: [.accelerometer, .gyroscope, .magnetometer, .location],
                                        bufferRows: 256, boardName: "test", softwareVersion: "t")
        let clock = SimulatedClock(epoch: 1_763_735_405_000_000_000)
        let recorder = Recorder(configuration: cfg, clock: clock, sensor: sensor, location: ScriptedGPS(), estimator: nil,
                                directory: try DiskDirectory(path: dir), log: Logger(label: "test"))
        sensor.stop = recorder.stop
        let summary = try recorder.run()
        #expect(summary.endReason == "stopped")
        let produced = sensor.reads.count
        #expect(produced == 1234)
        let (rows, problems) = try RecordingReader(path: dir + "/" + summary.files[0]).readAll()
        #expect(problems.isEmpty)
        #expect(rows.filter { $0.source == .accelerometer }.count == produced)
        #expect(rows.filter { $0.source == .gyroscope }.count == produced)
        #expect(rows.filter { $0.source == .magnetometer }.count == (produced + 1) / 2)
        // The GPS fix held at stop is written too (the last L row).
        #expect(rows.last?.source == .location && rows.last?.when == 1e10)
        #expect(summary.counters.droppedRows == 0)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + summary.files[0].replacingOccurrences(of: ".csv", with: ".json")))))
        #expect(meta.endedCleanly && meta.endReason == "stopped")
        #expect(meta.file.rows["A"] == produced)
    }

    @Test func durationGivesExactTickCountsAndOrderedRowsPerTick() throws {
        let dir = temporaryDirectory()
        let cfg = RecorderConfiguration(rateHz: 50, sources: [.accelerometer, .gyroscope, .magnetometer, .location],
                                        whenMode: .relative, duration: 20, rotation: RotationPolicy(maxSeconds: 5),
                                        boardName: "test", softwareVersion: "t")
        let summary = try record(cfg, sensor: ScriptedSensor(), location: ScriptedGPS(holdsFixAtStop: false), directory: dir)
        #expect(summary.files.count == 4)
        var all: [Row] = []
        for f in summary.files {
            let (rows, problems) = try RecordingReader(path: dir + "/" + f).readAll()
            #expect(problems.isEmpty)
            all += rows
        }
        let a = all.filter { $0.source == .accelerometer }
        #expect(a.count == 1000)
        #expect(a.map(\.when) == (0..<1000).map { Double($0) / 50 })
        #expect(a.map(\.values.0) == (0..<1000).map(Double.init))
        // Within a tick: A, G, M in that order.
        #expect(Array(all.prefix(3).map(\.source)) == [.accelerometer, .gyroscope, .magnetometer])
        let l = all.filter { $0.source == .location }
        #expect(l.prefix(19).map(\.when) == (0..<19).map(Double.init))
        #expect(summary.rowsWritten[.accelerometer] == 1000)
    }

    @Test func relativeAndEpochWhenDifferByTheStartEpoch() throws {
        let d1 = temporaryDirectory(), d2 = temporaryDirectory()
        var cfg = RecorderConfiguration(rateHz: 10, sources: [.accelerometer], duration: 1, boardName: "t", softwareVersion: "t")
        let s1 = try record(cfg, sensor: ScriptedSensor(), directory: d1)
        cfg.whenMode = .relative
        let s2 = try record(cfg, sensor: ScriptedSensor(), directory: d2)
        let r1 = try RecordingReader(path: d1 + "/" + s1.files[0]).readAll().rows
        let r2 = try RecordingReader(path: d2 + "/" + s2.files[0]).readAll().rows
        #expect(r2.map(\.when) == (0..<10).map { Double($0) / 10 })
        #expect(r1.first?.when == s1.startEpoch)
        #expect(s1.files[0] == TimeText.fileBase(epochSeconds: s1.startEpoch) + ".csv")
    }
}

