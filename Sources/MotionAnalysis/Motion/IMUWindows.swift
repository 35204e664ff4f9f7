import Foundation

/// Features of the accelerometer per 5 s window, for telling walking, cycling, riding in a
/// vehicle and lying still apart (docs/ANALYSIS.md, "Activity from the IMU").
///
/// The raw `A` stream (any rate) is averaged into 20 ms bins (50 Hz) first, so the cost
/// per raw sample is a few additions and one square root. On the 50 Hz magnitude series
/// each window measures: the power in the step-cadence band 1.4–2.3 Hz (Goertzel at
/// 0.1 Hz steps), the power of everything above 0.3 Hz, the power above 5 Hz plus the
/// within-bin variance (road or engine vibration), and the rotation-free "still" level.
public struct IMUWindow: Sendable, Equatable {
    public var start: Double
    /// RMS of |a| above 0.3 Hz, g.
    public var motionRMS: Double
    /// RMS of the 1.4–2.3 Hz band of |a|, g, and its share of the power 0.3–5 Hz.
    public var cadenceRMS: Double
    public var cadenceShare: Double
    /// RMS of |a| above 5 Hz (including content above the 25 Hz of the bins), g.
    public var vibrationRMS: Double
    /// Frequency of the strongest line in 0.8–3 Hz, Hz.
    public var peakHz: Double
    /// Raw `A` samples per second in the window.
    public var rateHz: Double = 0

    /// Below this rate a window holds nothing above 5 Hz (its Nyquist limit is at or under
    /// 10 Hz): its "vibration" is no evidence, and a bicycle at 10 Hz read as a car.
    public static let vibrationMinRateHz = 20.0
    /// Whether `vibrationRMS` says anything (see `vibrationMinRateHz`).
    public var resolvesVibration: Bool { rateHz >= Self.vibrationMinRateHz }

    /// Steps: a clear line in the walking band (cadence 84–138 steps per minute).
    public var looksLikeSteps: Bool { cadenceRMS > 0.04 && cadenceShare > 0.35 && peakHz >= 1.3 && peakHz <= 2.4 }
    /// Lying or standing still (no steps, no vibration worth mentioning).
    public var looksStill: Bool { motionRMS < 0.012 }
}

/// Accumulates `IMUWindow`s from `A` rows (streaming; one window of state).
struct IMUWindowBuilder {
    static let binRate = 50.0
    static let windowSeconds = 5.0
    static let frequencies: [Double] = stride(from: 0.8, through: 3.0, by: 0.1).map { $0 }

    /// The windows so far: the older ones as runs of their kind (`compact`), the rest whole.
    private(set) var index = IMUIndex()
    /// Windows starting before this may be kept as runs of their kind only: no piece of the
    /// track will look at them whole (`RecordingAnalyzer` sets it from what the track
    /// holds; +∞ while it holds no fix). The last `recentSeconds` are always kept whole.
    var wholeFrom = Double.infinity
    static let recentSeconds = 600.0
    /// Whole windows past which `compact` runs (it then keeps those from `wholeFrom` on).
    static let compactAt = 4096
    // Current 20 ms bin.
    private var binIndex: Int64 = .min
    private var binSum = (0.0, 0.0, 0.0)
    private var binMagSum = 0.0, binMagSq = 0.0
    private var binCount = 0
    // Current window: the magnitude series and the within-bin variance.
    private var windowIndex: Int64 = .min
    private var series: [Double] = []
    private var innerVariance = 0.0
    private var rawSamples = 0
    /// A completed 50 Hz bin: its start time and mean vector (for the movement measure).
    /// `repeats` > 1 when the bins after it were empty (a rate below 50 Hz): the movement
    /// measure holds the value over them (`movementHold`), as the features' series does
    /// over up to 0.2 s, so both stay at 50 Hz.
    struct Bin { var time: Double; var x: Double; var y: Double; var z: Double; var repeats: Int }

    /// Where the earliest window not yet in `index` starts (its samples still being
    /// added), nil when none is.
    var pendingStart: Double? {
        let bin: Double? = binCount > 0 ? Double(floorToInt64(Double(binIndex) / Self.binRate / Self.windowSeconds)) * Self.windowSeconds : nil
        let window: Double? = series.isEmpty ? nil : Double(windowIndex) * Self.windowSeconds
        switch (bin, window) {
        case let (b?, w?): return min(b, w)
        case let (b, w): return b ?? w
        }
    }

    /// Adds one A sample; returns the bin it completed, if any. A sample before the bin
    /// being filled (time went backwards: a damaged When, files out of order) is left out:
    /// windows are in time order, and one row a year back made a movement interval there.
    @inline(__always)
    mutating func add(when: Double, x: Double, y: Double, z: Double) -> Bin? {
        guard x.isFinite, y.isFinite, z.isFinite else { return nil }
        let index = floorToInt64(when * Self.binRate)
        guard index >= binIndex else { return nil }
        var completed: Bin?
        if index != binIndex {
            let missing = binIndex == .min ? -1 : index - binIndex - 1
            completed = flushBin(holdOver: missing > 0 && missing <= 10 ? Int(missing) : 0,
                                 movementHold: movementHold(missing: missing))
            binIndex = index
        }
        binSum.0 += x; binSum.1 += y; binSum.2 += z
        let m = (x * x + y * y + z * z).squareRoot()
        binMagSum += m; binMagSq += m * m
        binCount += 1
        return completed
    }

    /// Rows are written in time order, so once a row `settleSeconds` past the end of the
    /// bin and the window being filled has been read, no sample of theirs can still come:
    /// they are completed then, rather than at the next sample. An accelerometer that
    /// stopped (unplugged, failing) while the GPS went on would otherwise leave a window
    /// open to the end of the recording, and every later piece of the track waiting for it
    /// (`TrackTimeline`): 10 minutes of `A` rows before 14 days of fixes took 167 MB and
    /// 10.5 s instead of 39 MB and 0.9 s. Completing them early changes nothing: a later
    /// sample lies in another window, and holds no bin over a gap of more than 0.2 s.
    /// Returns the bin it completed, if any.
    mutating func settle(at time: Double) -> Bin? {
        guard let pending = pendingStart, time >= pending + Self.windowSeconds + Self.settleSeconds else { return nil }
        let last = flushBin(holdOver: 0)
        flushWindow()
        return last
    }

    /// How far past a window's end a row must lie before the window is completed without
    /// a sample after it (`settle`): far more than rows of one time are ever apart.
    static let settleSeconds = 60.0

    mutating func finish() -> Bin? {
        let last = flushBin(holdOver: 0)
        flushWindow()
        return last
    }

    /// How many empty bins after the one being completed the movement measure holds it
    /// over: the 20 ms series of the features holds a sample over at most 0.2 s (5 Hz),
    /// but movement integrates over time at any rate, so a slower stream's sample counts
    /// for its whole period. Over up to 4 × the smallest step between samples since the
    /// stream last paused for more than 1 s (any step up to 1 s while none is known),
    /// within 0.2–1 s, as `D` rows count theirs; at 1 Hz a sample counted 20 ms, a fiftieth.
    private mutating func movementHold(missing: Int64) -> Int {
        guard missing >= 0 else { nextRecording = false; return 0 }
        if missing > Self.movementHoldLimit { smallestStep = nil; nextRecording = false; return 0 }
        let step = missing + 1
        let limit = smallestStep.map { min(Self.movementHoldLimit, max(10, 4 * $0)) } ?? Self.movementHoldLimit
        // The step into another recording is no step of either: the sample before it is held
        // by its own recording's steps, and the new recording's are its own.
        if nextRecording {
            smallestStep = nil; nextRecording = false
        } else {
            smallestStep = min(smallestStep ?? step, step)
        }
        return missing <= limit ? Int(missing) : 0
    }

    /// Another recording begins: its rate is its own (read after a 50 Hz recording, a 2 Hz
    /// one's samples were each held over 0.2 s of their 0.5 s).
    mutating func startRecording() { nextRecording = true }
    private var nextRecording = false

    /// 1 s of empty bins: past it the movement's filters start again (`MovementAccumulator`).
    static let movementHoldLimit: Int64 = 50
    /// The smallest step between two samples' bins since the last pause over 1 s.
    private var smallestStep: Int64?

    private mutating func flushBin(holdOver: Int, movementHold: Int = 0) -> Bin? {
        guard binCount > 0 else { return nil }
        let n = Double(binCount)
        let t = Double(binIndex) / Self.binRate
        let mean = (binSum.0 / n, binSum.1 / n, binSum.2 / n)
        let magMean = binMagSum / n
        let variance = max(0, binMagSq / n - magMean * magMean)
        let w = floorToInt64(t / Self.windowSeconds)
        if w != windowIndex {
            flushWindow()
            windowIndex = w
        }
        let magnitude = (mean.0 * mean.0 + mean.1 * mean.1 + mean.2 * mean.2).squareRoot()
        for _ in 0...holdOver { series.append(magnitude) }
        innerVariance += variance * Double(holdOver + 1)
        rawSamples += binCount
        binSum = (0, 0, 0); binMagSum = 0; binMagSq = 0; binCount = 0
        return Bin(time: t, x: mean.0, y: mean.1, z: mean.2, repeats: max(holdOver, movementHold) + 1)
    }

    private mutating func flushWindow() {
        defer { series.removeAll(keepingCapacity: true); innerVariance = 0; rawSamples = 0 }
        // A window needs most of its bins (at least 2 s of data) to say anything.
        guard series.count >= Int(Self.binRate * 2) else { return }
        let n = Double(series.count)
        let mean = series.reduce(0, +) / n
        let fs = Self.binRate
        // Power above 0.3 Hz: remove a 0.3 Hz one-pole low-pass.
        var lp = series[0], hp5lp = series[0]
        var total = 0.0, high = 0.0
        let a03 = 1 - exp(-2 * Double.pi * 0.3 / fs), a5 = 1 - exp(-2 * Double.pi * 5 / fs)
        for v in series {
            lp += a03 * (v - lp)
            hp5lp += a5 * (v - hp5lp)
            total += (v - lp) * (v - lp)
            high += (v - hp5lp) * (v - hp5lp)
        }
        total /= n; high /= n
        // Goertzel power per frequency (normalised to the amplitude² / 2 of a sine).
        var band = 0.0, low = 0.0, peak = 0.0, peakHz = 0.0
        for f in Self.frequencies {
            let k = 2 * cos(2 * Double.pi * f / fs)
            var s1 = 0.0, s2 = 0.0
            for v in series {
                let s0 = (v - mean) + k * s1 - s2
                s2 = s1; s1 = s0
            }
            let power = max(0, s1 * s1 + s2 * s2 - k * s1 * s2) * 2 / (n * n)   // ≈ A²/2
            if f >= 1.4 - 1e-9 && f <= 2.3 + 1e-9 { band += power }
            low += power
            if power > peak { peak = power; peakHz = f }
        }
        // Goertzel lines 0.1 Hz apart over a 5 s window (resolution 0.2 Hz) overlap: halve.
        band /= 2; low /= 2
        let window = IMUWindow(start: Double(windowIndex) * Self.windowSeconds,
                               motionRMS: total.squareRoot(),
                               cadenceRMS: band.squareRoot(),
                               cadenceShare: total > 0 ? min(1, band / total) : 0,
                               vibrationRMS: (high + innerVariance / n).squareRoot(),
                               peakHz: peakHz,
                               rateHz: Double(rawSamples) / (n / fs))
        _ = low
        index.windows.append(window)
        if index.windows.count >= Self.compactAt { compact() }
    }

    /// Keeps the windows before `wholeFrom` (and before the last `recentSeconds`) as runs of
    /// their kind only, in batches: a recording's windows grew by about 1.7 MB a day, held
    /// to its end.
    private mutating func compact() {
        let keepFrom = min(wholeFrom, index.windows[index.windows.count - 1].start - Self.recentSeconds)
        // (At least a quarter at a time: removing from the front moves the rest.)
        index.compact(before: keepFrom, atLeast: Self.compactAt / 4)
    }
}
