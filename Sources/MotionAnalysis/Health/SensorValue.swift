import MotionCore

/// Values no IMU gives. The format accepts any finite number, but an accelerometer (g),
/// gyroscope (rad/s), magnetometer (µT) or user acceleration (g) of a million or more is a
/// damaged or hand-edited row: its square would overflow or swamp every sum it joins
/// (movement per interval, the magnetometer's field statistics, the activity features), so
/// the analysis leaves such rows out and counts them. NaN is not impossible here: the
/// parts of the analysis that read a value already skip it. The web page's charts leave out
/// the same rows, so they and the summary agree.
public enum SensorValue {
    public static let limit = 1e6

    /// The values of a row of `source` the analysis reads (the three axes; of `D` the user
    /// acceleration); nil for `L`, whose values the fix filter judges.
    @inline(__always)
    public static func valuesRead(_ source: Source) -> Range<Int>? {
        switch source {
        case .accelerometer, .gyroscope, .magnetometer: return 0..<3
        case .deviceMotion: return 3..<6
        case .location: return nil
        }
    }

    /// Whether any of the values `read` is ±infinity or at least `limit` in size.
    @inline(__always)
    public static func isImpossible(_ v: UnsafeBufferPointer<Double>, _ read: Range<Int>) -> Bool {
        for k in read where abs(v[k]) >= limit { return true }
        return false
    }
}
