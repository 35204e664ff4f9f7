import MotionCore

/// Values no IMU gives. The format accepts any finite number, but an accelerometer (g),
/// gyroscope (rad/s), magnetometer (µT) or user acceleration (g) of a million or more is a
/// damaged or hand-edited row: its square would overflow or swamp every sum it joins
/// (movement per interval, the magnetometer's field statistics, the activity features), so
/// the analysis leaves such rows out and counts them. NaN is not impossible here: the
/// parts of the analysis that read a value already skip it. The web page's charts leave out
/// the same rows, so they and the summary agree.
public enum SensorValue {
    public static let limit = SensorLimit.impossible

    /// Whether no sensor gives `value`: ±infinity, or at least `limit` in size (NaN is not).
    @inline(__always)
    public static func isImpossible(_ value: Double) -> Bool { abs(value) >= limit }

    /// Whether any of the three values of an IMU row that the analysis reads (x, y, z; a
    /// D row's user acceleration) is ±infinity or at least `limit` in size.
    @inline(__always)
    static func isImpossible(_ x: Double, _ y: Double, _ z: Double) -> Bool {
        isImpossible(x) || isImpossible(y) || isImpossible(z)
    }
}
