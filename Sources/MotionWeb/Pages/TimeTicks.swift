/// Where a chart's time axis is labelled: at round multiples of one step (10 min, 2 h, …),
/// not at quarters of the span (a night's axis read "0:24, 2:40:33, 5:20:43, 8:00:52").
enum TimeTicks {
    /// The steps to choose from, seconds: 1 s to a day.
    static let steps: [Double] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
                                  3600, 7200, 10_800, 21_600, 43_200, 86_400]

    /// How far outside `[t0, t1]` a tick may lie, as a share of the span: an elapsed axis
    /// whose first sample is at 0.24 s still starts at "0:00".
    static let slack = 0.02

    /// The multiples of the smallest step that leaves at most `most` labels in `[t0, t1]`
    /// (widened by `slack`), counted from `offset` seconds before zero (a time zone's
    /// offset from UTC, so that wall-clock labels fall on local hours); empty for an empty
    /// or non-finite span.
    static func ticks(from t0: Double, to t1: Double, most: Int = 6, offset: Double = 0) -> [Double] {
        guard t0.isFinite, t1.isFinite, t1 > t0, most >= 2 else { return [] }
        let span = t1 - t0
        let days = (span / Double(most - 1) / 86_400).rounded(.up) * 86_400
        let step = steps.first { span / $0 <= Double(most - 1) } ?? days
        var t = ((t0 - slack * span + offset) / step).rounded(.up) * step - offset
        var out: [Double] = []
        while t <= t1 + slack * span && out.count < most {
            out.append(t)
            t += step
        }
        return out
    }
}
