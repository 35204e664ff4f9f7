import MotionCore
import MotionMath

/// Recomputes the `D` rows of a recording from its `A`, `G` and `M` rows, as a stream:
/// rows go in in file order, rows come out in file order with the old `D` rows dropped and
/// a new `D` row after the `A`/`G`/`M` rows of every tick that has both `A` and `G` (the
/// order the recorder writes: A, G, M, D, then L). Other rows pass unchanged.
///
/// A tick is the run of `A`/`G`/`M` rows sharing one When; `L` rows carry the fix time,
/// not the tick's, so they stay where they are, after the tick they follow. The sample
/// period given to the estimator is the measured one: the When difference between
/// consecutive ticks with `A` and `G`. Each `L` row's fix is given to the estimator after
/// the D row of the tick it follows, as the recorder gives it (so the GPS-aided inclination
/// is the same in both). In a recording whose clock was stepped to GPS time (`ClockStep`),
/// periods and fix ages are measured on the placed times, so the step is no gap that
/// restarts the attitude; the rows keep the When they were written with.
public struct DeviceMotionRewriter: RowRewriting {
    private let estimator: DeviceMotionEstimator
    private let firstPeriod: Double
    private let clockStep: ClockStep?
    fileprivate var tick: PendingTick?
    private var lastFusedWhen: Double?
    /// `D` rows written.
    public private(set) var deviceMotionRows = 0
    /// Old `D` rows dropped.
    public private(set) var replacedRows = 0
    /// Ticks with `A` or `G` but not both (no `D` row possible).
    public private(set) var incompleteTicks = 0
    /// Magnetometer samples given to the estimator.
    public private(set) var magnetometerSamples = 0

    fileprivate struct PendingTick {
        var when: Double
        var rows: [Row] = []
        var accel: Row?
        var gyro: Row?
        var mag: Row?
        var trailing: [Row] = []
    }

    /// `firstPeriod` is the dt passed with the first sample (the nominal period if known);
    /// `clockStep` the input's, from its metadata.
    public init(estimator: DeviceMotionEstimator, firstPeriod: Double = 0, clockStep: ClockStep? = nil) {
        self.estimator = estimator
        self.firstPeriod = firstPeriod
        self.clockStep = clockStep
    }

    /// Takes the next row of the input; `emit` receives output rows in order.
    public mutating func push(_ row: Row, _ emit: (Row) -> Void) {
        switch row.source {
        case .deviceMotion:
            replacedRows += 1
        case .location:
            if tick != nil { tick?.trailing.append(row) } else { emit(row); observe(row) }
        case .accelerometer, .gyroscope, .magnetometer:
            if let t = tick, t.when != row.when || !t.trailing.isEmpty || t.has(row.source) {
                flush(emit)
            }
            if tick == nil { tick = PendingTick(when: row.when) }
            tick?.add(row)
        }
    }

    /// Ends the input: emits what is still pending.
    public mutating func finish(_ emit: (Row) -> Void) { flush(emit) }

    private mutating func flush(_ emit: (Row) -> Void) {
        guard let t = tick else { return }
        tick = nil
        for r in t.rows { emit(r) }
        if let a = t.accel, let g = t.gyro {
            let time = clockStep?.place(.accelerometer, t.when) ?? t.when
            let dt = lastFusedWhen.map { time - $0 } ?? firstPeriod
            lastFusedWhen = time
            let mag = t.mag.map { Vector3($0[0], $0[1], $0[2]) }
            if mag != nil { magnetometerSamples += 1 }
            let motion = estimator.update(accel: Vector3(a[0], a[1], a[2]), gyro: Vector3(g[0], g[1], g[2]),
                                          mag: mag, dt: dt)
            emit(Row(deviceMotion: motion, label: a.label, when: t.when))
            deviceMotionRows += 1
        } else if t.accel != nil || t.gyro != nil {
            incompleteTicks += 1
        }
        for r in t.trailing { emit(r); observe(r) }
    }

    /// An `L` row's fix, after the D row of the tick it follows (as the recorder gives it).
    private func observe(_ row: Row) {
        // The recorder writes only 2-D and 3-D fixes; anything else is not a fix to use.
        guard let last = lastFusedWhen, row[8] == 2 || row[8] == 3 else { return }
        let fix = LocationFix(when: row.when, latitude: row[0], longitude: row[1], altitudeMSL: row[2],
                              speed: row[3], course: row[4], climb: row[5], eph: row[6], epv: row[7],
                              mode: row[8] == 2 ? 2 : 3)
        estimator.observe(fix, age: last - row.when)
    }
}

extension DeviceMotionRewriter.PendingTick {
    func has(_ s: Source) -> Bool {
        switch s {
        case .accelerometer: return accel != nil
        case .gyroscope: return gyro != nil
        case .magnetometer: return mag != nil
        default: return false
        }
    }

    mutating func add(_ row: Row) {
        rows.append(row)
        switch row.source {
        case .accelerometer: accel = row
        case .gyroscope: gyro = row
        case .magnetometer: mag = row
        default: break
        }
    }
}
