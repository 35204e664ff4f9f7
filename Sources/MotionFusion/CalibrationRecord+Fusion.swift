import MotionCore

extension FusionCalibration {
    /// The calibration as numbers for the metadata (`recording.calibration`).
    public var record: CalibrationRecord {
        let s = magSoftIron
        return CalibrationRecord(
            gyroBiasRadPerS: [gyroBias.x, gyroBias.y, gyroBias.z],
            magHardIronMicrotesla: [magHardIron.x, magHardIron.y, magHardIron.z],
            magSoftIron: [[s[0, 0], s[0, 1], s[0, 2]], [s[1, 0], s[1, 1], s[1, 2]], [s[2, 0], s[2, 1], s[2, 2]]],
            accelOffsetG: [accelOffset.x, accelOffset.y, accelOffset.z],
            accelScale: [accelScale.x, accelScale.y, accelScale.z],
            origin: origin)
    }
}

extension DeviceMotionFilter {
    /// The calibration this filter applies, as numbers (nil when it applies none).
    public var calibrationRecord: CalibrationRecord? { calibration.isIdentity ? nil : calibration.record }
}
