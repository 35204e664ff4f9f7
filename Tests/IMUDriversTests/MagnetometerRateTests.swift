import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// M rows come at the magnetometer's own rate; each sensor is read in one burst per tick.
@Suite struct MagnetometerRateTests {
    @Test("M rows at the magnetometer's rate, A/G rows every tick", arguments: [
        (IMUModel.mpu9250, 200, 100.0), (.icm20948, 200, 100.0), (.lsm9ds1, 100, 80.0), (.mpu9250, 50, 50.0),
        (.lsm9ds1, 50, 50.0),
    ])
    func rate(model: IMUModel, tickHz: Int, expectedMagHz: Double) throws {
        let h = Harness(model, rateHz: tickHz) { _ in .faceUpAtRest }
        try h.start()
        let readings = h.ticks(tickHz * 4)
        let magRows = Double(readings.filter { $0.mag != nil }.count) / 4
        #expect(abs(magRows - expectedMagHz) <= 1, "\(magRows) M rows per second")
        #expect(readings.allSatisfy { $0.accel != nil && $0.gyro != nil })
        #expect(h.driver.health == SensorHealth(), "no trouble counted in a clean run: \(h.driver.health)")
        #expect(h.driver.info.magRateHz == (model == .lsm9ds1 ? 80 : 100))
    }

    @Test("one burst per sensor per tick (plus a read-back ten times a second)", arguments: IMUModel.allCases)
    func burstsPerTick(model: IMUModel) throws {
        // A moving truth: identical raw data tick after tick would (rightly) trigger a read-back.
        let h = Harness(model, rateHz: 100) { t in
            PhysicalState(specificForce: Vector3(0.01 * t, 0, 1), angularRate: Vector3(0, 0, t), magneticField: Vector3(20, 0, -40))
        }
        try h.start()
        let readsBefore = h.bus.reads
        _ = h.ticks(100)
        let inertial = (h.bus.reads[h.address] ?? 0) - (readsBefore[h.address] ?? 0)
        let magnetic = (h.bus.reads[h.magAddress] ?? 0) - (readsBefore[h.magAddress] ?? 0)
        let burstsPerTick = model == .lsm9ds1 ? 2 : 1   // the LSM9DS1's gyro and accel blocks are apart
        let readBacks = model == .mpu9250 ? 20 : 10   // the MPU-9250's read-back is two short reads
        #expect(inertial == 100 * burstsPerTick + readBacks)
        #expect(magnetic <= 100 + 10)
    }
}
