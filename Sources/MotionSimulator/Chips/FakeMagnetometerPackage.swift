/// The magnetometer die inside a package (AK8963 in an MPU-9250, AK09916 in an ICM-20948):
/// reachable at 0x0C only while its host opens the I2C bypass.
public protocol FakePackagedMagnetometer: FakeI2CDevice {
    /// Back to the die's power-on state.
    func powerOn()
}

/// A package of two dies: an accelerometer/gyroscope and its magnetometer.
public protocol FakeMagnetometerPackage: FakeI2CDevice {
    associatedtype Magnetometer: FakePackagedMagnetometer
    var magnetometer: Magnetometer { get }
    /// The accelerometer/gyroscope die back to its power-on state.
    func powerOnRegisters()
}

extension FakeMagnetometerPackage {
    /// Attaches the package's accelerometer/gyroscope die at `address` and its magnetometer at 0x0C.
    func attachDies(on bus: FakeI2CBus, address: UInt8) {
        bus.attach(self, at: address)
        bus.attach(magnetometer, at: 0x0C)
    }

    /// A power glitch: both dies return to their power-on state.
    public func powerCycle() {
        powerOnRegisters()
        magnetometer.powerOn()
    }
}
