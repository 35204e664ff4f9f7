/// When of a GPS fix in a file written with `--when relative`: the fix's epoch time minus
/// the recording's start, rounded to the microsecond. Epoch seconds as Doubles resolve
/// only about 0.24 µs today, so the plain difference carries noise in its last digits
/// (`0.9200000762939453` for a fix 0.92 s after the start); rounded, it is written as the
/// shortest decimal (`0.92`), like the IMU rows' `k / rate`. See docs/FORMAT.md ("When").
public enum RelativeWhen {
    /// `epochSeconds − offset`, rounded to 1 µs when `offset` is not 0 (epoch mode: unchanged).
    public static func of(epochSeconds: Double, offset: Double) -> Double {
        guard offset != 0 else { return epochSeconds }
        let seconds = epochSeconds - offset
        guard seconds.isFinite, abs(seconds) < 1e9 else { return seconds }
        return (seconds * 1e6).rounded() / 1e6
    }
}
