/// Decides the activity of a stretch of movement from its GPS speed profile and, where
/// `A` rows exist, the accelerometer (docs/ANALYSIS.md, "Activity"). The structure
/// follows Zheng et al. (2008/2010, GeoLife): split the track at walk / non-walk change
/// points, merge segments too short to be real, then classify each segment by robust
/// features (speed percentiles instead of the maximum, acceleration, share of time
/// standing) rather than by a single speed rule.
enum ModeClassifier {
    /// Fixes slower than this (smoothed) are standing; between this and `walkMax` they
    /// look like walking. People walk below about 2 m/s and change to running above it
    /// (the preferred walk–run transition speed; Hreljac 1993, Thorstensson & Roberthson
    /// 1987), so a sustained 2.0–2.2 m/s is a slow bicycle far more often than a walk
    /// (GeoLife user 179 rode 20 minutes at it; Zheng et al. use 1.8 m/s on raw speeds).
    static let stillMax = 0.5
    static let walkMax = 2.0
    /// A walk-like stretch shorter than this between two faster ones is the faster mode
    /// slowing down (traffic, a junction), and vice versa.
    static let minRunSeconds = 60.0
    /// IMU: |a| vibration above 5 Hz that a bicycle on a road makes and a car's suspension
    /// filters out, g. Below it a ride is smooth (a car, a train).
    static let cyclingVibration = 0.015
    /// IMU: vibration above which a run at bicycle speeds is a bicycle whatever its speed
    /// profile, g (0.5 m/s²). Between `cyclingVibration` and this the vibration does not
    /// decide: a car's cabin gives 0.2–0.5 m/s² (a dashboard phone in a real car measured
    /// 0.026–0.033 g), a bicycle's handlebar several m/s² (Parkin & Sainte Cluque 2014:
    /// above the workplace action value of 2.5 m/s² on a London commute), a logger in a
    /// rider's bag less; there the speed profile decides.
    static let decisiveCyclingVibration = 0.05
    /// A run is called faster than walking only on at least this many moving fixes: one or
    /// two jittery phone fixes on a platform are not a bicycle.
    static let minMovingFixes = 3
    /// GPS only: a run whose 85th percentile speed is at least this is a vehicle, m/s
    /// (25 km/h). Everyday riders do not hold it: the German Naturalistic Cycling Study
    /// (Schleinitz et al. 2017, 90 riders, 17 000 km) measured mean speeds of about 15 km/h
    /// on conventional bicycles and 2 km/h more on pedelecs, whose motor stops helping at
    /// 25 km/h by law; only S-pedelecs (motor to 45 km/h) averaged about 24 km/h. It is
    /// also the issue's own speed rule's bicycle limit (7 m/s). A faster rider whose logger
    /// feels the road is still a bicycle (`decisiveCyclingVibration`, up to `imuVehicleP85`).
    static let vehicleP85 = 7.0
    /// GPS only: faster than this at the 85th percentile (21.6 km/h, above most everyday
    /// riders) is one of the signs of traffic; two signs make a vehicle.
    static let trafficP85 = 6.0
    /// With the IMU: a run faster than this at the 85th (m/s, 32 km/h) or 95th percentile
    /// (47 km/h) is a vehicle whatever the vibration (a road racer's fast group ride is
    /// beyond it too: a known limit).
    static let imuVehicleP85 = 9.0, imuVehicleP95 = 13.0

    /// Features of one run of fixes.
    struct Features {
        var duration = 0.0
        /// Fixes whose steady speed is at least `stillMax`.
        var movingFixes = 0
        var p50 = 0.0, p85 = 0.0, p95 = 0.0
        var stillShare = 0.0
        var accelP90 = 0.0
        var imuWindows = 0
        var stepShare = 0.0
        var vibration = 0.0
        /// Whether most of the windows were sampled fast enough for `vibration` (`IMUWindow.resolvesVibration`).
        var vibrationKnown = false
        var motion = 0.0
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let i = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
        return sorted[i]
    }

    /// `speeds` (±5 s) give acceleration and standing; `steady` (±15 s) the speed percentiles.
    static func features(fixes: [Fix], speeds: [Double], steady: [Double], range: ClosedRange<Int>, imu: IMUIndex) -> Features {
        var f = Features()
        let t0 = fixes[range.lowerBound].time, t1 = fixes[range.upperBound].time
        f.duration = t1 - t0
        var moving: [Double] = []
        var still = 0.0, total = 0.0
        var accels: [Double] = []
        for i in range {
            if steady[i] >= stillMax { moving.append(steady[i]) }
            if i > range.lowerBound {
                let dt = min(fixes[i].time - fixes[i - 1].time, 30)
                total += dt
                if speeds[i] < stillMax { still += dt }
            }
            if i > range.lowerBound && i < range.upperBound {
                let dt = fixes[i + 1].time - fixes[i - 1].time
                if dt > 0 && dt <= 12 { accels.append(abs(speeds[i + 1] - speeds[i - 1]) / dt) }
            }
        }
        moving.sort(); accels.sort()
        f.movingFixes = moving.count
        f.p50 = percentile(moving, 0.5); f.p85 = percentile(moving, 0.85); f.p95 = percentile(moving, 0.95)
        f.stillShare = total > 0 ? still / total : 0
        f.accelP90 = percentile(accels, 0.9)
        imu.describe(from: t0, to: t1, into: &f)
        return f
    }

    /// The activity of a walk-like run (mostly 0.5–2.2 m/s) and what decided it.
    static func classifyWalkLike(_ f: Features) -> (Activity, ActivityBasis) {
        if f.imuWindows >= 4 {
            if f.stepShare >= 0.3 { return (.walking, .speedAndIMU) }
            if f.stepShare < 0.15 && f.motion > 0.012 && f.vibrationKnown {
                return (f.vibration >= cyclingVibration ? .cycling : .vehicle, .speedAndIMU)
            }
        }
        return (.walking, .speed)
    }

    /// The activity of a run faster than walking.
    static func classifyFast(_ f: Features) -> (Activity, ActivityBasis) {
        if f.imuWindows >= 4 {
            if f.stepShare >= 0.5 && f.p85 < 3.5 { return (.walking, .speedAndIMU) }
            if f.vibrationKnown {
                guard f.p85 < imuVehicleP85 && f.p95 < imuVehicleP95 else { return (.vehicle, .speedAndIMU) }
                if f.vibration >= decisiveCyclingVibration { return (.cycling, .speedAndIMU) }
                if f.vibration < cyclingVibration { return (.vehicle, .speedAndIMU) }
                // A vibration a car and a bicycle share: the speed profile decides.
            }
        }
        if f.p85 >= vehicleP85 || f.p95 >= 12.5 { return (.vehicle, .speed) }
        if f.p85 < walkMax + 0.3 { return (.walking, .speed) }
        // Speeds a bicycle and urban traffic share: look at how it moves.
        var evidence = 0
        if f.p95 > 9.5 { evidence += 1 }
        if f.accelP90 > 0.9 { evidence += 1 }
        if f.stillShare > 0.2 && f.p85 > trafficP85 { evidence += 1 }
        if f.p85 > trafficP85 { evidence += 1 }
        return (evidence >= 2 ? .vehicle : .cycling, .speed)
    }
}
