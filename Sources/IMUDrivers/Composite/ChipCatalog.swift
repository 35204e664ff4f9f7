/// Which chip classes serve an `IMUSelection`: the one place that maps names to drivers.
enum ChipCatalog {
    static func make(_ selection: IMUSelection, bus: I2CBus, options: IMUOptions) -> IMUChip {
        let failures = FailureCounter()
        let inertial: InertialChip
        switch selection.model {
        case .mpu9250: return MPU9250Chip(bus: bus, options: options)
        case .icm20948: return ICM20948Chip(bus: bus, options: options)
        case .lsm9ds1: return LSM9DS1Chip(bus: bus, options: options)
        case .bno055: return BNO055Chip(bus: bus, options: options)
        case .mpu6050: inertial = MPU6050Chip(bus: bus, options: options, failures: failures)
        case .lsm6dsox: inertial = LSM6DSOXChip(bus: bus, options: options, failures: failures)
        case .icm42688: inertial = ICM42688Chip(bus: bus, options: options, failures: failures)
        }
        let magnetometer: MagnetometerChip?
        switch selection.magnetometer {
        case nil: magnetometer = nil
        case .hmc5883l: magnetometer = HMC5883LChip(bus: bus, options: options, failures: failures)
        case .qmc5883l: magnetometer = QMC5883LChip(bus: bus, options: options, failures: failures)
        case .lis3mdl: magnetometer = LIS3MDLChip(bus: bus, options: options, failures: failures)
        }
        return CompositeChip(inertial: inertial, magnetometer: magnetometer, failures: failures, options: options)
    }
}
