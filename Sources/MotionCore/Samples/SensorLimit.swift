/// The size no IMU value reaches: an accelerometer (g), gyroscope (rad/s), magnetometer (µT)
/// or user acceleration (g) of a million or more is a damaged or hand-edited row, though
/// the format accepts any finite number. The analysis leaves such rows out and counts them
/// (`SensorValue`); the fusion skips them as it skips non-finite ones (one gyro value of
/// 1e300 turned every later D row of a fused file into NaN).
public enum SensorLimit {
    public static let impossible = 1e6

    /// Whether `value` is finite and below `impossible` in size.
    @inline(__always)
    public static func isPossible(_ value: Double) -> Bool { abs(value) < impossible }
}
