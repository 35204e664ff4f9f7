import Foundation
import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// Every injected fault: counted, no crash, recovery once the fault clears, and each
/// episode reported once (not per sample).
@Suite struct FaultTests {
    /// A slowly turning truth, so stale or mis-scaled data would show.
    static func truth(_ t: Double) -> PhysicalState {
        PhysicalState(specificForce: Vector3(0.3 * sin(t), -0.2, 0.93 + 0.05 * cos(2 * t)),
                      angularRate: Vector3(0.5 * sin(3 * t), 0.25, -0.4 * cos(t)),
                      magneticField: Vector3(22 + 5 * sin(t), -8, -41))
    }

    static func accelOK(_ a: Vector3?, at t: Double, _ model: IMUSelection) -> Bool {
        guard let a else { return true }
        return maxAbs(a + truth(t).specificForce) <= Resolution.accel(model, range: 16)
    }

    @Test("one failed transfer is retried within the tick: no gap", arguments: Chips.all)
    func transientError(model: IMUSelection) throws {
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(5)
        h.bus.faults.ioErrors = 1
        h.bus.faults.ioErrorAddress = h.address
        let r = h.tick()
        #expect(r.accel != nil && r.gyro != nil)
        #expect(h.driver.health.busErrors == 1)
        #expect(h.driver.health.gapTicks == 0)
        #expect(h.recordedEvents.isEmpty)
    }

    @Test("a tick whose retry also fails is one counted gap, logged once", arguments: Chips.all)
    func oneGapTick(model: IMUSelection) throws {
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(5)
        h.bus.faults.ioErrors = 2
        h.bus.faults.ioErrorAddress = h.address
        let gap = h.tick()
        #expect(gap.accel == nil && gap.gyro == nil)
        // A magnetometer chip of its own goes on; one inside the failing chip has a gap too.
        if model.magnetometer == nil { #expect(gap.mag == nil) }
        let next = h.tick()
        #expect(next.accel != nil)
        #expect(h.driver.health.gapTicks == 1)
        #expect(h.driver.health.busErrors == 2)
        #expect(h.driver.health.reinitializations == 0)
        #expect(h.recordedEvents.count == 2)
        #expect(h.recordedEvents.last == .gapEnded(elapsed: 0.06, gapTicks: 1, reinitialized: false))
    }

    @Test("EIO for many transfers: re-initialised with backoff, then samples are right again", arguments: Chips.all)
    func persistentIOErrors(model: IMUSelection) throws {
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(10)
        h.bus.faults.ioErrors = 12
        var after: [(Double, Vector3?)] = []
        for _ in 0..<300 {
            let t = h.elapsed
            after.append((t, h.tick().accel))
        }
        let health = h.driver.health
        // Errors on every address: a magnetometer chip of its own is restarted on its own too.
        #expect(health.reinitializations == 1 || (model.magnetometer != nil && health.reinitializations == 2))
        #expect(health.gapTicks >= 3)
        #expect(health.busErrors == 12)
        #expect(after.suffix(100).allSatisfy { $0.1 != nil })
        #expect(after.allSatisfy { Self.accelOK($0.1, at: $0.0, model) })
        let starts = h.recordedEvents.filter { if case .gapStarted = $0 { return true } else { return false } }
        let ends = h.recordedEvents.filter { if case .gapEnded(_, _, true) = $0 { return true } else { return false } }
        #expect(starts.count == 1 && ends.count == 1)
        if case .gapEnded(_, let n, _) = ends.first { #expect(n == health.gapTicks) }
    }

    @Test("a chip that stops acknowledging (NACK) is retried with backoff, not hammered", arguments: Chips.all)
    func nack(model: IMUSelection) throws {
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(10)
        h.bus.faults.nack.insert(h.address)
        let outage = h.ticks(500)   // 5 s
        #expect(outage.allSatisfy { $0.accel == nil })
        let errorsDuringOutage = h.driver.health.busErrors
        // Backoff 0.05 s doubling to 2 s: about eight attempts in 5 s, not one per tick.
        #expect(errorsDuringOutage < 40, "\(errorsDuringOutage) bus errors in 500 ticks")
        h.bus.faults.nack.remove(h.address)
        let back = h.ticks(300)
        #expect(back.suffix(50).allSatisfy { $0.accel != nil && $0.gyro != nil })
        #expect(h.driver.health.reinitializations == 1)
        #expect(h.driver.health.gapTicks >= 500)
        #expect(h.recordedEvents.count(where: { if case .gapStarted = $0 { true } else { false } }) == 1)
    }

    @Test("a chip reset mid-run is noticed, no wrong sample is delivered, and it is set up again", arguments: Chips.all)
    func resetMidRun(model: IMUSelection) throws {
        let h = Harness(model, options: IMUOptions(accelRangeG: 16), truth: Self.truth)
        try h.start()
        _ = h.ticks(20)
        h.powerCycle()
        var samples: [(Double, MotionReading)] = []
        for _ in 0..<150 {   // the BNO055 takes 650 ms to come back from its reset
            let t = h.elapsed
            samples.append((t, h.tick()))
        }
        #expect(h.driver.health.reinitializations >= 1)
        #expect(samples.allSatisfy { Self.accelOK($0.1.accel, at: $0.0, model) }, "a sample after the reset was decoded at the wrong scale")
        #expect(samples.suffix(30).allSatisfy { $0.1.accel != nil })
        #expect(samples.suffix(30).contains { $0.1.mag != nil })
    }

    @Test("a chip put to sleep by someone else is noticed from its frozen data: no stale row", arguments: Chips.all)
    func frozenData(model: IMUSelection) throws {
        let h = Harness(model, truth: Self.truth)
        try h.start()
        var readings = h.ticks(20)
        switch model.model {
        case .mpu9250, .mpu6050: try h.bus.writeByte(address: 0x68, register: 0x6B, 0x41)   // SLEEP
        case .icm20948: try h.bus.writeByte(address: 0x69, register: 0x06, 0x41)  // SLEEP
        case .lsm9ds1: try h.bus.writeByte(address: 0x6B, register: 0x10, 0x00)   // gyro power-down
        case .lsm6dsox: try h.bus.writeByte(address: 0x6A, register: 0x11, 0x00)  // gyro power-down
        case .icm42688: try h.bus.writeByte(address: 0x68, register: 0x4E, 0x00)  // both sensors off
        case .bno055: try h.bus.writeByte(address: 0x28, register: 0x3E, 0x02)    // PWR_MODE suspend
        }
        readings += h.ticks(100)
        let accel = readings.compactMap(\.accel)
        #expect(zip(accel, accel.dropFirst()).allSatisfy { $0 != $1 }, "a frozen sample was recorded twice")
        #expect(h.driver.health.reinitializations == 1)
        // The BNO055 takes 650 ms to come back from its reset.
        #expect(readings.suffix(model.model == .bno055 ? 20 : 50).allSatisfy { $0.accel != nil })
    }

    @Test("magnetometer data-ready stuck: counted, restarted with backoff, A/G go on", arguments: Chips.all)
    func stuckDataReady(model: IMUSelection) throws {
        // The HMC5883L has no data-ready flag a read clears: a hung measurement is not
        // detectable (docs/IMU.md); its resets are (configuration read-back).
        guard model.magnetometer != .hmc5883l else { return }
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(10)
        h.setMagDataReadyStuck(true)
        let stuck = h.ticks(400)   // 4 s
        #expect(stuck.allSatisfy { $0.mag == nil })
        #expect(stuck.allSatisfy { $0.accel != nil && $0.gyro != nil })
        let health = h.driver.health
        #expect(health.magNotReady > 100)
        #expect(health.gapTicks == 0)
        // Restarts after 1 s, then 2 s later: backoff, not every tick.
        #expect(health.reinitializations >= 1 && health.reinitializations <= 3)
        h.setMagDataReadyStuck(false)
        let back = h.ticks(300)
        let magRate = try #require(h.driver.info.magRateHz)
        #expect(Double(back.suffix(100).filter { $0.mag != nil }.count) >= 0.7 * min(100, magRate))
        #expect(h.recordedEvents.count(where: { if case .magnetometerStalled = $0 { true } else { false } }) == 1)
        #expect(h.recordedEvents.count(where: { if case .magnetometerResumed = $0 { true } else { false } }) == 1)
    }

    @Test("a magnetometer that stops acknowledging does not stop the accelerometer", arguments: Chips.all)
    func magnetometerNack(model: IMUSelection) throws {
        // The BNO055's magnetometer has no address of its own.
        guard model.model != .bno055 else { return }
        let h = Harness(model, truth: Self.truth)
        try h.start()
        _ = h.ticks(10)
        h.bus.faults.nack.insert(h.magAddress)
        let outage = h.ticks(1000)   // 10 s
        #expect(outage.allSatisfy { $0.accel != nil && $0.mag == nil })
        #expect(h.driver.health.gapTicks == 0)
        #expect(h.driver.health.busErrors < 120, "\(h.driver.health.busErrors) bus errors: the magnetometer is hammered")
        h.bus.faults.nack.remove(h.magAddress)
        let back = h.ticks(3000)   // the next restart may be up to 30 s away at most; here ≤ 16 s
        #expect(back.suffix(100).contains { $0.mag != nil })
    }

    @Test("magnetic overflow is counted and the sample discarded", arguments: Chips.all)
    func overflow(model: IMUSelection) throws {
        // The BNO055 reports no magnetic overflow: its words clip at the range.
        guard model.model != .bno055 else { return }
        // Beyond 4912 µT summed for the AKM parts; beyond ±4 gauss (saturation) for the LSM9DS1.
        // HMC5883L beyond ±4 Ga (its −4096 word), QMC5883L beyond ±8 G (OVL), LIS3MDL
        // beyond ±4 gauss (saturation).
        let huge: Vector3
        switch (model.model, model.magnetometer) {
        case (.lsm9ds1, _), (_, .lis3mdl): huge = Vector3(700, 0, 0)
        case (_, .hmc5883l): huge = Vector3(600, 0, 0)
        case (_, .qmc5883l): huge = Vector3(1200, 0, 0)
        default: huge = Vector3(3000, -2500, 0)
        }
        let h = Harness(model) { t in
            PhysicalState(specificForce: Vector3(0, 0, 1), angularRate: .zero,
                          magneticField: t >= 0.5 && t < 1.0 ? huge : Vector3(20, 0, -40))
        }
        try h.start()
        let before = h.ticks(45).compactMap(\.mag).count
        let during = h.ticks(50)
        let after = h.ticks(60)
        #expect(before > 20)
        // A sample measured just before the field changed may still arrive in the first six ticks.
        #expect(during.dropFirst(6).allSatisfy { $0.mag == nil })
        #expect(h.driver.health.magOverflow >= 30)
        #expect(after.suffix(40).contains { $0.mag != nil })
    }
}

@Suite struct IdentityTests {
    @Test("wrong identity at start: a clear error naming what was found", arguments: [
        (IMUSelection.mpu9250, UInt8(0x70), "MPU-6500"), (.icm20948, 0x12, "0x12"), (.lsm9ds1, 0x69, "LSM6DS3"),
        (.mpu6050QMC, 0x71, "MPU-9250"), (.lsm6dsoxLIS3MDL, 0x68, "LSM9DS1"), (.icm42688QMC, 0x68, "MPU-6050"),
        (.bno055, 0x12, "0x12"),
    ])
    func wrongIdentity(model: IMUSelection, identity: UInt8, mentions: String) throws {
        let h = Harness(model) { _ in .faceUpAtRest }
        h.board.identity = identity
        let error = try #require(throws: IMUError.self) { try h.start() }
        guard case .wrongIdentity(_, let bus, let address, _, _, let found) = error else {
            Issue.record("expected wrongIdentity, got \(error)")
            return
        }
        #expect(bus == "/dev/i2c-test" && address == h.address && found == identity)
        #expect(error.description.contains(mentions))
        #expect(error.description.contains("motionlog probe"))
    }

    @Test("wrong magnetometer identity is an error too")
    func wrongMagnetometer() throws {
        let h = Harness(.lsm9ds1) { _ in .faceUpAtRest }
        (h.chip as? FakeLSM9DS1)?.magnetometer.identity = 0x40
        let error = try #require(throws: IMUError.self) { try h.start() }
        #expect(error.description.contains("LSM9DS1 magnetometer"))
        #expect(error.description.contains("0x40"))
    }

    @Test("no chip on the bus: not found, naming the addresses tried", arguments: Chips.all)
    func notFound(model: IMUSelection) throws {
        let h = Harness(model, truth: { _ in .faceUpAtRest }, install: false)
        let error = try #require(throws: IMUError.self) { try h.start() }
        guard case .notFound(_, _, let addresses, let last) = error else {
            Issue.record("expected notFound, got \(error)")
            return
        }
        #expect(addresses.count == 2)
        #expect(last.kind == .noAcknowledge)
        #expect(error.description.contains("no acknowledge"))
    }

    @Test("a rate above the chip's output data rate is refused with the maximum", arguments: Chips.all)
    func rateTooHigh(model: IMUSelection) throws {
        let tooFast = model.model == .lsm6dsox || model.model == .icm42688 ? 10000 : 2000
        let h = Harness(model, rateHz: tooFast) { _ in .faceUpAtRest }
        let error = try #require(throws: IMUError.self) { try h.start() }
        #expect(error.description.contains("--rate"))
    }

    @Test("a transient error during start is retried; the reset wait is requested", arguments: Chips.all)
    func startRetries(model: IMUSelection) throws {
        let h = Harness(model) { _ in .faceUpAtRest }
        h.bus.faults.ioErrors = 1
        try h.start()
        #expect(h.driver.health.busErrors == 1)
        #expect(h.recordedPauses.contains { $0 >= 0.01 })
        #expect(h.tick().accel != nil)
    }
}
