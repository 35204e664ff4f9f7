import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// The acceptance check of the new chips: the same simulated ride through each chip's
/// register-level fake under its real driver gives the same A, G and M means as through
/// the MPU-9250's, within the new chip's resolution (one LSB of its output at the range
/// the driver chose). Means are over every row each sensor delivered in 60 s of riding.
@Suite struct RideMeansTests {
    struct Means: CustomStringConvertible {
        var accel = Vector3.zero, gyro = Vector3.zero, mag = Vector3.zero
        var counts = (a: 0, m: 0)
        var description: String { "A \(accel) G \(gyro) M \(mag) (\(counts.a) A rows, \(counts.m) M rows)" }
    }

    static let seconds = 60
    static let rateHz = 100

    static func ride(_ selection: IMUSelection) throws -> (Means, SensorInfo, SensorHealth) {
        let sensor = SimulatedChipIMU(selection: selection, ride: SimulatedIMU())
        try sensor.start(rateHz: rateHz)
        var m = Means()
        for i in 0..<(seconds * rateHz) {
            let t = Double(i) / Double(rateHz)
            let r = sensor.read(at: Tick(index: Int64(i), monotonicNanos: Int64(i) * 10_000_000, when: t, elapsed: t))
            if let a = r.accel, let g = r.gyro { m.accel = m.accel + a; m.gyro = m.gyro + g; m.counts.a += 1 }
            if let f = r.mag { m.mag = m.mag + f; m.counts.m += 1 }
        }
        m.accel = m.accel / Double(max(1, m.counts.a))
        m.gyro = m.gyro / Double(max(1, m.counts.a))
        m.mag = m.mag / Double(max(1, m.counts.m))
        return (m, sensor.info, sensor.health)
    }

    @Test("same ride, same A/G/M means as the MPU-9250 within the chip's resolution",
          arguments: [IMUSelection.mpu6050QMC, .mpu6050HMC, .lsm6dsoxLIS3MDL, .icm42688QMC, .bno055])
    func sameMeans(selection: IMUSelection) throws {
        let (reference, _, _) = try Self.ride(.mpu9250)
        let (means, info, health) = try Self.ride(selection)
        #expect(health.gapTicks == 0 && health.busErrors == 0 && health.magGapTicks == 0, "\(health)")
        #expect(means.counts.a == Self.seconds * Self.rateHz)
        let accelLSB = Resolution.accel(selection, range: try #require(info.accelRangeG))
        let gyroLSB = Resolution.gyro(selection, range: try #require(info.gyroRangeDegPerSec))
        let magLSB = Resolution.mag(selection, range: try #require(info.magRangeMicroTesla))
        print("\(selection): \(means)\n  mpu9250: \(reference)\n  differences A \(maxAbs(means.accel - reference.accel)) g (LSB \(accelLSB)), G \(maxAbs(means.gyro - reference.gyro)) rad/s (LSB \(gyroLSB)), M \(maxAbs(means.mag - reference.mag)) µT (LSB \(magLSB))")
        #expect(maxAbs(means.accel - reference.accel) <= accelLSB, "A: \(means.accel) vs \(reference.accel)")
        #expect(maxAbs(means.gyro - reference.gyro) <= gyroLSB, "G: \(means.gyro) vs \(reference.gyro)")
        #expect(maxAbs(means.mag - reference.mag) <= magLSB, "M: \(means.mag) vs \(reference.mag)")
    }
}
