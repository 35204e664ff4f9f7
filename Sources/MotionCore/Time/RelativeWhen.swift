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

    /// For readers: a fix's epoch time from a relative file (`start + When`) put back on the
    /// tick it was rounded from, when it is within the writer's rounding of one. The fix at
    /// a whole second was written `0.933333` for the 30 Hz tick `0.9333333333333333`, and
    /// `start` plus it fell 0.2 µs before the tick: in a wide CSV the fix joined no tick,
    /// and a time read a second early. The tick's epoch time is `k / rate + start`, as here.
    public static func placedOnTicks(_ epoch: Double, start: Double, rateHz: Int) -> Double {
        guard start != 0, rateHz > 0 else { return epoch }
        let rate = Double(rateHz)
        let tick = ((epoch - start) * rate).rounded() / rate
        return abs(epoch - start - tick) <= 1.5e-6 ? tick + start : epoch
    }
}
