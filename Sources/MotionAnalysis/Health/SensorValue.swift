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

    /// Whether any value of an IMU row that `read` marks (bit k: value k, as
    /// `RowSink.valuesRead`) is ±infinity or at least `limit` in size. `L` rows are the fix
    /// filter's to judge.
    @inline(__always)
    static func isImpossible(_ source: Source, _ v: UnsafeBufferPointer<Double>, read: UInt32) -> Bool {
        guard source != .location else { return false }
        for k in v.indices where read & (1 << UInt32(k)) != 0 && isImpossible(v[k]) { return true }
        return false
    }
}
