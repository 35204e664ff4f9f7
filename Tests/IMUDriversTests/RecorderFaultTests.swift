import Foundation
import IMUDrivers
import Logging
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// The real recorder, the real driver, a fake chip and a script of faults during a run:
/// the recording never stops, GPS rows and the writer go on, every missing A row is a
/// counted gap tick (in the metadata too), no wrong row is written, and each episode is
/// logged once.
@Suite struct RecorderFaultTests {
    final class Events { var list: [IMUEvent] = [] }

    @Test("faults during a recording: counted gaps, nothing invented, GPS and writer go on", arguments: Chips.all)
    func faultsDuringARecording(model: IMUSelection) throws {
        let events = Events()
        let ride = SimulatedIMU()
        let sensor = SimulatedChipIMU(selection: model, ride: ride, onEvent: { events.list.append($0) })
        let address = sensor.board.address
        let magAddress = sensor.board.magAddress ?? 0
        let bus = sensor.bus
        bus.schedule(at: 2) { $0.faults.ioErrors = 3; $0.faults.ioErrorAddress = address }
        bus.schedule(at: 4) { $0.faults.nack.insert(address) }
        bus.schedule(at: 5) { $0.faults.nack.remove(address) }
        bus.schedule(at: 8) { _ in
            sensor.board.powerCycle()
        }
        bus.schedule(at: 11) { _ in Self.stuck(sensor, true) }
        bus.schedule(at: 14) { _ in Self.stuck(sensor, false) }
        bus.schedule(at: 16) { $0.faults.nack.insert(magAddress) }
        bus.schedule(at: 17) { $0.faults.nack.remove(magAddress) }

        let dir = NSTemporaryDirectory() + "motionlog-imu-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer, .gyroscope, .magnetometer, .location],
                                        whenMode: .relative, duration: 25, boardName: "simulator", softwareVersion: "test")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000), sensor: sensor,
                                location: SimulatedGPS(), estimator: nil, directory: try DiskDirectory(path: dir),
                                log: Logger(label: "test"))
        let summary = try recorder.run()

        let health = summary.counters.sensorHealth
        #expect(summary.ticks == 2500)
        #expect(health.gapTicks > 100)                       // the 1 s NACK alone is 100 ticks
        #expect(health.reinitializations >= 3)               // after the NACK, after the reset, magnetometer restarts
        #expect(health.busErrors >= 3)
        // (The HMC5883L has no data-ready flag: its stuck measurement shows nothing.)
        #expect(health.magNotReady > 0 || model.magnetometer == .hmc5883l)
        // Every tick has an A row unless it is a counted gap tick.
        #expect(summary.rowsWritten[.accelerometer] == 2500 - Int64(health.gapTicks))
        #expect(summary.rowsWritten[.gyroscope] == 2500 - Int64(health.gapTicks))
        #expect((summary.rowsWritten[.location] ?? 0) >= 24)   // GPS went on through the gaps
        // The metadata carries the same counts.
        let csv = try #require(summary.files.first)
        let json = dir + "/" + String(csv.dropLast(4)) + ".json"
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        #expect(meta.counters.sensorHealth == health)
        // No row written is wrong: each A row matches the ride's truth at its time.
        let lsb = Resolution.accel(model, range: 16)
        var checked = 0
        for line in try String(contentsOfFile: dir + "/" + csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            guard f[0] == "A", let t = Double(f[2]), let x = Double(f[3]), let y = Double(f[4]), let z = Double(f[5]) else { continue }
            let truth = try #require(ride.read(at: Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: t)).accel)
            #expect(maxAbs(Vector3(x, y, z) - truth) <= lsb, "A row at \(t) s: \(x), \(y), \(z) vs \(truth)")
            checked += 1
        }
        #expect(checked == 2500 - health.gapTicks)
        // Logged once per episode, not per sample: a handful of events for five faults.
        let gapStarts = events.list.filter { if case .gapStarted = $0 { true } else { false } }.count
        let gapEnds = events.list.filter { if case .gapEnded = $0 { true } else { false } }.count
        #expect(gapStarts == gapEnds && gapStarts >= 2 && gapStarts <= 4)
        // A magnetometer chip of its own reports its own episodes (behind an MPU-6050 it is
        // unreachable while the MPU-6050 is).
        #expect(events.list.count <= (model.magnetometer == nil ? 12 : 16), "\(events.list)")
    }

    static func stuck(_ sensor: SimulatedChipIMU, _ on: Bool) {
        sensor.board.setMagDataReadyStuck(on)
    }
}
