import MotionCore
import MotionMath

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

extension FusionCalibration {
    /// The calibration a recording's metadata says its D rows were computed with; nil when
    /// the record is not three numbers per vector and three rows of three for the matrix.
    public init?(record r: CalibrationRecord, origin: String?) {
        func vector(_ v: [Double]) -> Vector3? { v.count == 3 ? Vector3(v[0], v[1], v[2]) : nil }
        guard let bias = vector(r.gyroBiasRadPerS), let hard = vector(r.magHardIronMicrotesla),
              let offset = vector(r.accelOffsetG), let scale = vector(r.accelScale),
              r.magSoftIron.count == 3, let s0 = vector(r.magSoftIron[0]), let s1 = vector(r.magSoftIron[1]),
              let s2 = vector(r.magSoftIron[2]) else { return nil }
        self.init(gyroBias: bias, magHardIron: hard, magSoftIron: Matrix3(rows: s0, s1, s2),
                  accelOffset: offset, accelScale: scale, origin: origin)
    }
}

extension CalibrationRecord {
    /// The numbers alone (where they came from left out), to compare two calibrations.
    public var withoutOrigin: CalibrationRecord { var r = self; r.origin = nil; return r }
}

extension DeviceMotionFilter {
    /// The calibration this filter applies, as numbers (nil when it applies none).
    public var calibrationRecord: CalibrationRecord? { calibration.isIdentity ? nil : calibration.record }
}
