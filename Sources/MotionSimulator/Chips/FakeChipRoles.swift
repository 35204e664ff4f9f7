import IMUDrivers

/// A fake accelerometer/gyroscope (or whole IMU) chip with the faults tests inject.
public protocol FakeInertialChip: FakeI2CDevice {
    var truth: PhysicalTruth { get set }
    /// WHO_AM_I (or equivalent); set another value to fake a wrong chip.
    var identity: UInt8 { get set }
    /// A power glitch: the chip returns to its power-on state mid-run.
    func powerCycle()
}

/// A fake magnetometer chip of its own. It encodes `truth(t).magneticField` as the field
/// along ITS OWN axes, and answers only while `reachable()` is true (e.g. behind an
/// MPU-6050 whose bypass is off).
public protocol FakeMagnetometerChip: FakeI2CDevice {
    var truth: PhysicalTruth { get set }
    var reachable: () -> Bool { get set }
    /// Fault: the chip stops producing new measurements (data-ready never sets, data frozen).
    var dataReadyNeverSet: Bool { get set }
    func powerCycle()
}
