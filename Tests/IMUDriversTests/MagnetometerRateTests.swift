import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// M rows come at the magnetometer's own rate; each sensor is read in one burst per tick.
@Suite struct MagnetometerRateTests {
    @Test("M rows at the magnetometer's rate, A/G rows every tick", arguments: [
        (IMUSelection.mpu9250, 200, 100.0), (.icm20948, 200, 100.0), (.lsm9ds1, 100, 80.0), (.mpu9250, 50, 50.0),
        (.lsm9ds1, 50, 50.0), (.mpu6050QMC, 100, 100.0), (.mpu6050QMC, 200, 200.0), (.mpu6050QMC, 20, 20.0),
        (.mpu6050HMC, 100, 100.0), (.mpu6050HMC, 20, 20.0), (.lsm6dsoxLIS3MDL, 100, 100.0), (.lsm6dsoxLIS3MDL, 40, 40.0),
        (.icm42688QMC, 50, 50.0),
    ])
    func rate(model: IMUSelection, tickHz: Int, expectedMagHz: Double) throws {
        let h = Harness(model, rateHz: tickHz) { _ in .faceUpAtRest }
        try h.start()
        let readings = h.ticks(tickHz * 4)
        let magRows = Double(readings.filter { $0.mag != nil }.count) / 4
        #expect(abs(magRows - expectedMagHz) <= 1, "\(magRows) M rows per second")
        #expect(readings.allSatisfy { $0.accel != nil && $0.gyro != nil })
        #expect(h.driver.health == SensorHealth(), "no trouble counted in a clean run: \(h.driver.health)")
        let chosen: [IMUSelection: [Int: Double]] = [
            .mpu6050QMC: [100: 100, 200: 200, 20: 50], .mpu6050HMC: [100: 160, 20: 30], .lsm6dsoxLIS3MDL: [100: 155, 40: 40],
            .icm42688QMC: [50: 50],
        ]
        #expect(h.driver.info.magRateHz == chosen[model]?[tickHz] ?? (model == .lsm9ds1 ? 80 : 100))
    }

    @Test("one burst per sensor per tick (plus a read-back ten times a second)", arguments: Chips.all)
    func burstsPerTick(model: IMUSelection) throws {
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
        // The MPU-9250's and MPU-6050's read-back is two short reads.
        let readBacks = model.model == .mpu9250 || model.model == .mpu6050 ? 20 : 10
        #expect(inertial == 100 * burstsPerTick + readBacks)
        // The QMC5883L's status and the HMC5883L's mode register come before the data.
        let magReadsPerSample = model.magnetometer == .qmc5883l || model.magnetometer == .hmc5883l ? 2 : 1
        if model.model != .bno055 {   // the BNO055's magnetometer comes in the same burst
            #expect(magnetic <= magReadsPerSample * 100 + 10)
        }
    }
}
