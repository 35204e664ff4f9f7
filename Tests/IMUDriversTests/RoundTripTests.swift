import IMUDrivers
import MotionMath
import MotionSimulator
import Testing

/// Driver + register-level fake: physical truth in, format units out, within one LSB, for
/// every chip and every full scale the driver supports. The fake encodes with the full
/// scale the driver wrote, so a driver decoding with another scale fails here.
@Suite struct RoundTripTests {
    /// Fractions of full scale per axis: negative, tiny, zero and near full scale.
    static let fractions: [Vector3] = [
        Vector3(-0.98, 0.5, 0), Vector3(0.97, -0.61, 0.25), Vector3(-0.013, 0.0021, -0.33),
        Vector3(0.72, 0.33, -0.97), Vector3(0, 0, 0.999), Vector3(-0.999, -0.25, 0.61), Vector3(1e-4, -1e-4, 0.5),
    ]
    static let field = Vector3(21.5, -4.25, -43.75)

    @Test("accelerometer: every full scale", arguments: Chips.all)
    func accelerometer(model: IMUSelection) throws {
        for range in Resolution.accelRanges(model) {
            let values = Self.fractions.map { $0 * range }
            let h = Harness(model, options: IMUOptions(accelRangeG: range)) { t in
                PhysicalState(specificForce: values[Int((t * 100).rounded()) % values.count], angularRate: .zero,
                              magneticField: Self.field)
            }
            try h.start()
            #expect(h.driver.info.accelRangeG == range)
            for specificForce in values {
                let a = try #require(h.tick().accel)
                // A rows carry −(specific force) in g.
                #expect(maxAbs(a + specificForce) <= Resolution.accel(model, range: range),
                        "\(model) ±\(range) g: \(a) for specific force \(specificForce)")
            }
        }
    }

    @Test("gyroscope: every full scale", arguments: Chips.all)
    func gyroscope(model: IMUSelection) throws {
        for range in Resolution.gyroRanges(model) {
            let values = Self.fractions.map { $0 * (range * Double.pi / 180) }
            let h = Harness(model, options: IMUOptions(gyroRangeDegPerSec: range)) { t in
                PhysicalState(specificForce: Vector3(0, 0, 1), angularRate: values[Int((t * 100).rounded()) % values.count],
                              magneticField: Self.field)
            }
            try h.start()
            #expect(h.driver.info.gyroRangeDegPerSec == range)
            for rate in values {
                let g = try #require(h.tick().gyro)
                #expect(maxAbs(g - rate) <= Resolution.gyro(model, range: range), "\(model) ±\(range) °/s: \(g) for \(rate)")
            }
        }
    }

    /// Field changes every 0.1 s; the last M row of each segment (from a sample taken
    /// inside the segment) must match it.
    @Test("magnetometer: every full scale, the chip's own axes and byte order", arguments: Chips.all)
    func magnetometer(model: IMUSelection) throws {
        // The BNO055 has no data-ready flag for its magnetometer: any M row it delivers is new.
        let firstTick = model.model == .bno055 ? 0 : 3
        for range in Resolution.magRanges(model) {
            let values = Self.fractions.map { $0 * range }
            let h = Harness(model, options: IMUOptions(magRangeMicroTesla: range)) { t in
                PhysicalState(specificForce: Vector3(0, 0, 1), angularRate: .zero,
                              magneticField: values[min(values.count - 1, Int((t + 1e-9) / 0.1))])
            }
            try h.start()
            for (segment, field) in values.enumerated() {
                var last: Vector3?
                for k in 0..<10 {
                    let m = h.tick().mag
                    if k >= firstTick, let m { last = m }
                }
                let m = try #require(last, "\(model): no M row in segment \(segment)")
                #expect(maxAbs(m - field) <= Resolution.mag(model, range: range), "\(model) ±\(range) µT: \(m) for \(field)")
            }
        }
    }

    @Test("a request between full scales gets the next larger one", arguments: Chips.all)
    func rangeChoice(model: IMUSelection) throws {
        let h = Harness(model, options: IMUOptions(accelRangeG: 3, gyroRangeDegPerSec: 300, magRangeMicroTesla: 500)) { _ in .faceUpAtRest }
        try h.start()
        #expect(h.driver.info.accelRangeG == 4)
        #expect(h.driver.info.gyroRangeDegPerSec == 500)
        let magRange: Double? = [.lsm9ds1: 800, .lsm6dsoxLIS3MDL: 800, .mpu6050HMC: 560, .mpu6050QMC: 800, .icm42688QMC: 800][model]
        if let magRange { #expect(h.driver.info.magRangeMicroTesla == magRange) }
    }

    @Test("face up at rest reads A ≈ (0, 0, −1), the CoreMotion sign", arguments: Chips.all)
    func faceUp(model: IMUSelection) throws {
        let h = Harness(model) { _ in .faceUpAtRest }
        try h.start()
        let a = try #require(h.ticks(3).last?.accel)
        #expect(maxAbs(a - Vector3(0, 0, -1)) <= Resolution.accel(model, range: 16))
    }
}
