import Foundation
import MotionCore
import MotionMath

/// A chip IMU (MPU-9250, ICM-20948, LSM9DS1, BNO055) or a composite one (an
/// accelerometer/gyroscope chip such as the MPU-6050, LSM6DSOX or ICM-42688-P plus a
/// magnetometer chip such as the QMC5883L, HMC5883L or LIS3MDL) over an `I2CBus`, as the
/// recorder's `MotionSensor`.
///
/// Per tick: one burst read of accelerometer + gyroscope and, when due at the
/// magnetometer's own rate, one burst read of the magnetometer; conversion to the
/// format's units and CoreMotion signs (A = −specific force in g, G rad/s, M µT); the
/// board's mount orientation. A/G/M stay raw: calibration is not applied here.
///
/// Trouble, all without blocking the tick or sleeping:
/// - a failed transfer is retried once within the tick (both counted in `busErrors`);
/// - a tick that still has no sample is a gap (`gapTicks`); after
///   `failedTicksBeforeReinit` such ticks, or as soon as a read-back shows the chip lost
///   its configuration (a reset), the chip is re-initialised in phases spread over ticks,
///   with exponential backoff between failed attempts (`reinitializations`);
/// - a magnetometer that reports no data (`magNotReady`), flags overflow (`magOverflow`),
///   or stops for `magStallSeconds` is restarted on its own, with backoff, while the
///   accelerometer and gyroscope go on;
/// - a separate magnetometer chip goes on while the accelerometer/gyroscope chip has a
///   gap, and the M samples a failing magnetometer misses are counted (`magGapTicks`);
/// - each episode is reported once to `onEvent` at its start and once at its end.
public final class IMUDriver: MotionSensor {
    public private(set) var health = SensorHealth()
    public let selection: IMUSelection
    public var model: IMUModel { selection.model }
    let chip: IMUChip
    let mount: MountOrientation
    let policy: RecoveryPolicy
    let pause: (Double) -> Void
    let onEvent: ((IMUEvent) -> Void)?
    /// `IMUOptions.chipFusion`: the chip runs its own fusion, delivered as `chipFusion`.
    let chipFusion: Bool
    /// The rotation from device to chip axes (the inverse mount), to turn the chip's
    /// attitude (chip → ENU) into the device's.
    private let deviceToChip: Quaternion

    private var rateHz = RecorderConfiguration.defaultRateHz
    private var tickPeriod = 0.01
    private var started = false
    private var mode = Mode.running
    private var failedTicks = 0
    private var ticksSinceVerify = 0
    private var verifyEveryTicks = 10
    private var gap: (open: Bool, ticks: Int) = (false, 0)
    private var previous = InertialSample(specificForce: .zero, rate: .zero)
    private var mag = MagState()

    private enum Mode {
        case running
        /// Re-initialising: the next phase runs at `notBefore`; `attempt` counts failed attempts.
        case recovering(phase: Int, inertialDone: Bool, notBefore: Double, failedAttempts: Int)
    }

    private struct MagState {
        var lastSample = -Double.infinity
        var firstPoll: Double?
        var failures = 0
        var stalled = false
        var stallSince = 0.0
        /// Restart in progress: next phase and when.
        var restartPhase: Int?
        var restartNotBefore = 0.0
        var restartsWithoutSample = 0
        /// The next scheduled restart while stalled; infinity when none is scheduled.
        var nextRestartAt = Double.infinity
        /// True after a failed restart: no polling until the next one.
        var suspended = false
        /// When the last sample came or the last missed one was counted (`magGapTicks`).
        var lastGap = -Double.infinity
    }

    /// `pause` sleeps during `start()` only (for the waits a reset needs); tests pass a
    /// recorder of requested waits. `onEvent` receives one call per episode.
    public init(selection: IMUSelection, bus: I2CBus, options: IMUOptions = IMUOptions(),
                pause: @escaping (Double) -> Void = IMUDriver.sleep, onEvent: ((IMUEvent) -> Void)? = nil) {
        self.selection = selection
        chip = ChipCatalog.make(selection, bus: bus, options: options)
        mount = options.mount; policy = options.recovery; self.pause = pause; self.onEvent = onEvent
        chipFusion = options.chipFusion
        deviceToChip = Quaternion(rotationMatrix: options.mount.matrix.transposed)
    }

    /// One chip with everything it has on board.
    public convenience init(model: IMUModel, bus: I2CBus, options: IMUOptions = IMUOptions(),
                            pause: @escaping (Double) -> Void = IMUDriver.sleep, onEvent: ((IMUEvent) -> Void)? = nil) {
        self.init(selection: IMUSelection(model), bus: bus, options: options, pause: pause, onEvent: onEvent)
    }

    /// Real sleeping, for `start()` on hardware.
    public static func sleep(_ seconds: Double) {
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }

    public var info: SensorInfo {
        guard started else { return SensorInfo(model: chip.placement) }
        let s = chip.settings
        var notes = s.notes
        if chip.hasMagnetometer {
            notes.append("M rows at the magnetometer's \(Self.text(s.magRateHz)) Hz (or the tick rate if lower)")
        } else {
            notes.append("no magnetometer: no M rows (pair one, e.g. --imu \(selection.model)+qmc5883l)")
        }
        notes.append("mount \(mount): device axes from chip axes")
        notes.append(chipFusion ? "A/G/M as the chip's fusion mode delivers them (offset-compensated by the chip); D rows from the chip's own fusion"
                                : "A/G/M raw: calibration applies to D rows only")
        let hasMag = chip.hasMagnetometer
        return SensorInfo(model: chip.placement, accelRangeG: s.accelRangeG, gyroRangeDegPerSec: s.gyroRangeDegPerSec,
                          magRangeMicroTesla: hasMag ? s.magRangeMicroTesla : nil, accelRateHz: s.accelRateHz,
                          gyroRateHz: s.gyroRateHz, magRateHz: hasMag ? s.magRateHz : nil, notes: notes)
    }

    public var hasMagnetometer: Bool? { chip.hasMagnetometer }

    /// The chip's own fusion for the metadata (with `IMUOptions.chipFusion`, after `start`).
    public var chipFusionInfo: [String: String]? {
        guard chipFusion, started, var info = chip.fusionInfo else { return nil }
        info["mount"] = "the chip's attitude, gravity and linear acceleration turned into device axes by the mount \(mount)"
        return info
    }

    // MARK: start

    /// Brings the chip up: identity, reset, ranges, ODR/filter for `rateHz`, magnetometer.
    /// A phase that fails on the bus is retried once; a wrong identity is not.
    public func start(rateHz: Int) throws {
        guard !chipFusion || selection.hasOwnFusion else { throw IMUError.fusionUnsupported(chip: selection.displayName) }
        guard rateHz >= 1, rateHz <= chip.maxRateHz else {
            throw IMUError.rateUnsupported(chip: chip.model, requestedHz: rateHz, maximumHz: chip.maxRateHz)
        }
        self.rateHz = rateHz
        tickPeriod = 1 / Double(rateHz)
        let verifyHz = policy.verifyHz > 0 ? min(policy.verifyHz, Double(rateHz)) : 10
        verifyEveryTicks = max(1, Int((Double(rateHz) / verifyHz).rounded()))
        defer { health.busErrors += chip.failures.take() }
        try runPhases { (p: Int) throws(IMUError) in try chip.bringUpInertial(phase: p, rateHz: rateHz) }
        try runPhases { (p: Int) throws(IMUError) in try chip.bringUpMagnetometer(phase: p) }
        started = true
        mode = .running
        mag = MagState()
    }

    private func runPhases(_ step: (Int) throws(IMUError) -> PhaseResult) throws(IMUError) {
        var phase = 0
        var retried = false
        while true {
            let result: PhaseResult
            do { result = try step(phase) } catch {
                guard case .bus = error, !retried else { throw error }
                retried = true
                continue
            }
            retried = false
            switch result {
            case .done: return
            case .next(let wait):
                pause(wait)
                phase += 1
            }
        }
    }

    // MARK: per tick

    public func read(at tick: Tick) -> MotionReading {
        guard started else { return MotionReading() }
        let now = tick.elapsed
        if case .recovering = mode { return MotionReading(mag: recover(now)) }

        let inertial: InertialSample
        switch retried({ () throws(I2CError) in try chip.readInertial() }) {
        case .failure(let error):
            failedTicks += 1
            noteGapTick(now, reason: error.description)
            if failedTicks >= policy.failedTicksBeforeReinit { beginRecovery(now) }
            return MotionReading(mag: independentMagnetometer(now))
        case .success(.configurationLost):
            noteGapTick(now, reason: "the \(chip.model)'s configuration read back wrong (the chip was reset)")
            beginRecovery(now, immediately: true)
            return MotionReading(mag: independentMagnetometer(now))
        case .success(.sample(let s)):
            inertial = s
        }
        failedTicks = 0

        // A reset chip reads all zeros, or holds its last values while asleep, or runs at
        // the wrong scale: read the set-up back now and then, and at once when every axis
        // reads exactly zero or exactly what it read last tick (real sensors are noisy).
        ticksSinceVerify += 1
        let suspicious = (inertial.specificForce == .zero && inertial.rate == .zero)
            || (inertial.specificForce == previous.specificForce && inertial.rate == previous.rate)
        previous = inertial
        if ticksSinceVerify >= verifyEveryTicks || suspicious {
            ticksSinceVerify = 0
            switch retried({ () throws(I2CError) in try chip.inertialConfigurationIntact() }) {
            case .success(false):
                noteGapTick(now, reason: "the \(chip.model)'s configuration read back wrong (the chip was reset)")
                beginRecovery(now, immediately: true)
                return MotionReading(mag: independentMagnetometer(now))
            case .failure:
                ticksSinceVerify = verifyEveryTicks  // try again next tick
            case .success(true):
                checkMagnetometerConfiguration(now)
            }
        }
        if gap.open { closeGap(now, reinitialized: false) }

        return MotionReading(accel: mount.toDevice(-inertial.specificForce),
                             gyro: mount.toDevice(inertial.rate),
                             mag: chip.hasMagnetometer ? readMagnetometerIfDue(now) : nil,
                             chipFusion: chipFusion ? deviceFusion(inertial) : nil)
    }

    /// The chip's fusion output in device axes and motionlog's conventions (docs/IMU.md):
    /// attitude device → ENU = chip attitude · (device → chip); gravity and user
    /// acceleration with the format's sign (the negative of the specific-force sign the
    /// chip uses). An attitude that is not a unit quaternion within 1 % (all zeros until
    /// the fusion's first output) is no output: counted, never invented.
    private func deviceFusion(_ sample: InertialSample) -> ChipFusionOutput? {
        guard let f = sample.fusion, abs(f.attitude.norm - 1) <= 0.01 else {
            health.fusionNotReady += 1
            return nil
        }
        return ChipFusionOutput(attitude: (f.attitude.normalized * deviceToChip).normalized,
                                gravity: mount.toDevice(-f.gravity),
                                userAcceleration: mount.toDevice(-f.linearAcceleration),
                                rotationRate: mount.toDevice(sample.rate))
    }

    /// During an accelerometer/gyroscope gap: a magnetometer chip of its own goes on; one
    /// inside the failing chip has a gap too (counted when a sample was due).
    private func independentMagnetometer(_ now: Double) -> Vector3? {
        guard chip.hasMagnetometer else { return nil }
        if chip.magnetometerIndependent { return readMagnetometerIfDue(now) }
        countMagGapIfDue(now)
        return nil
    }

    /// Runs `op`, and once more if it fails; each failure is a counted bus error.
    private func retried<T>(_ op: () throws(I2CError) -> T) -> Result<T, I2CError> {
        do { return .success(try op()) } catch { health.busErrors += 1 }
        do { return .success(try op()) } catch {
            health.busErrors += 1
            return .failure(error)
        }
    }

    // MARK: gaps and recovery

    private func noteGapTick(_ now: Double, reason: String) {
        health.gapTicks += 1
        if !gap.open {
            gap = (true, 0)
            onEvent?(.gapStarted(elapsed: now, reason: reason))
        }
        gap.ticks += 1
    }

    private func closeGap(_ now: Double, reinitialized: Bool) {
        onEvent?(.gapEnded(elapsed: now, gapTicks: gap.ticks, reinitialized: reinitialized))
        gap = (false, 0)
    }

    private func beginRecovery(_ now: Double, immediately: Bool = false) {
        mode = .recovering(phase: 0, inertialDone: false,
                           notBefore: immediately ? now : now + policy.backoff(afterFailedAttempts: 1),
                           failedAttempts: 0)
    }

    /// One tick of re-initialisation; returns the magnetometer's sample when it is a chip
    /// of its own (it is not re-initialised with the accelerometer/gyroscope chip).
    private func recover(_ now: Double) -> Vector3? {
        guard case .recovering(let phase, let inertialDone, let notBefore, let failed) = mode else { return nil }
        noteGapTick(now, reason: "re-initialising the \(chip.model)")
        let magSample = independentMagnetometer(now)
        guard now >= notBefore else { return magSample }
        defer { health.busErrors += chip.failures.take() }
        do {
            let result = inertialDone ? try chip.bringUpMagnetometer(phase: phase)
                                      : try chip.bringUpInertial(phase: phase, rateHz: rateHz)
            switch result {
            case .next(let wait):
                mode = .recovering(phase: phase + 1, inertialDone: inertialDone, notBefore: now + wait, failedAttempts: failed)
            case .done where !inertialDone && !chip.magnetometerIndependent:
                mode = .recovering(phase: 0, inertialDone: true, notBefore: now, failedAttempts: failed)
            case .done where chip.magnetometerIndependent:
                health.reinitializations += 1
                mode = .running
                failedTicks = 0
                ticksSinceVerify = 0
                closeGap(now, reinitialized: true)
            case .done:
                health.reinitializations += 1
                mode = .running
                failedTicks = 0
                ticksSinceVerify = 0
                let (stalled, since) = (mag.stalled, mag.stallSince)
                mag = MagState()
                mag.stalled = stalled; mag.stallSince = since
                closeGap(now, reinitialized: true)
            }
        } catch {
            let attempts = failed + 1
            mode = .recovering(phase: 0, inertialDone: false,
                               notBefore: now + policy.backoff(afterFailedAttempts: attempts), failedAttempts: attempts)
        }
        return magSample
    }

    // MARK: magnetometer

    /// Due when a new sample is expected: half a tick before one magnetometer period has
    /// passed since the last sample. M rows therefore come at the magnetometer's rate.
    private func readMagnetometerIfDue(_ now: Double) -> Vector3? {
        if mag.restartPhase != nil { countMagGapIfDue(now); continueMagRestart(now); return nil }
        if now >= mag.nextRestartAt { countMagGapIfDue(now); beginMagRestart(now, reason: "no data"); return nil }
        if mag.suspended { countMagGapIfDue(now); return nil }
        let period = 1 / chip.settings.magRateHz
        guard now + tickPeriod / 2 >= mag.lastSample + period else { return nil }
        if mag.firstPoll == nil { mag.firstPoll = now }
        switch retried({ () throws(I2CError) in try chip.readMagnetometer() }) {
        case .failure(let error):
            countMagGapIfDue(now)
            mag.failures += 1
            if mag.failures >= policy.failedTicksBeforeReinit {
                // First time: restart now. Already restarting without luck: stop polling
                // until the next scheduled restart (no bus hammering, no error flood).
                if mag.nextRestartAt == .infinity { beginMagRestart(now, reason: error.description) } else { mag.suspended = true }
            }
            return nil
        case .success(.notReady):
            mag.failures = 0
            let since = mag.lastSample.isFinite ? mag.lastSample : (mag.firstPoll ?? now)
            // A poll earlier than one period after the last sample may legitimately find
            // nothing (e.g. 80 Hz polled by 100 Hz ticks); only data that is late counts.
            if now - since >= period - 1e-9 { health.magNotReady += 1 }
            if now - since >= policy.magStallSeconds, mag.nextRestartAt == .infinity {
                beginMagRestart(now, reason: "no new data for \(Self.text(now - since)) s (data-ready never set)")
            }
            return nil
        case .success(.overflow):
            health.magOverflow += 1
            mag.failures = 0
            mag.lastSample = now
            return nil
        case .success(.sample(let field)):
            mag.lastGap = now
            if mag.stalled {
                onEvent?(.magnetometerResumed(elapsed: now, seconds: now - mag.stallSince))
            }
            mag = MagState()
            mag.lastSample = now
            mag.lastGap = now
            return mount.toDevice(field)
        }
    }

    /// Counts one missed M sample when one magnetometer period passed since the last
    /// sample or the last missed one: bus errors, NACKs and restarts, not data-not-ready.
    private func countMagGapIfDue(_ now: Double) {
        let period = 1 / chip.settings.magRateHz
        guard period.isFinite else { return }
        if !mag.lastGap.isFinite { mag.lastGap = now - period }
        if now + tickPeriod / 2 >= mag.lastGap + period {
            health.magGapTicks += 1
            mag.lastGap = now
        }
    }

    /// Skipped while the magnetometer is stalled: its restarts run on their own schedule.
    private func checkMagnetometerConfiguration(_ now: Double) {
        guard chip.hasMagnetometer, mag.restartPhase == nil, !mag.stalled else { return }
        if case .success(false) = retried({ () throws(I2CError) in try chip.magnetometerConfigurationIntact() }) {
            beginMagRestart(now, reason: "its mode read back wrong (the magnetometer was reset)")
        }
    }

    private func beginMagRestart(_ now: Double, reason: String) {
        if !mag.stalled {
            mag.stalled = true
            mag.stallSince = now
            onEvent?(.magnetometerStalled(elapsed: now, reason: reason))
        }
        mag.restartPhase = 0
        mag.restartNotBefore = now
        continueMagRestart(now)
    }

    private func continueMagRestart(_ now: Double) {
        guard let phase = mag.restartPhase, now >= mag.restartNotBefore else { return }
        defer { health.busErrors += chip.failures.take() }
        do {
            switch try chip.bringUpMagnetometer(phase: phase) {
            case .next(let wait):
                mag.restartPhase = phase + 1
                mag.restartNotBefore = now + wait
            case .done:
                health.reinitializations += 1
                finishMagRestart(now, succeeded: true)
            }
        } catch {
            finishMagRestart(now, succeeded: false)
        }
    }

    /// After a restart (done or failed) the next one is scheduled, each wait twice the
    /// last, and cancelled as soon as a sample arrives.
    private func finishMagRestart(_ now: Double, succeeded: Bool) {
        mag.restartPhase = nil
        mag.failures = 0
        mag.suspended = !succeeded
        mag.restartsWithoutSample += 1
        var wait = policy.magStallSeconds
        for _ in 1..<max(1, mag.restartsWithoutSample) where wait < policy.maxMagRestartWait { wait *= 2 }
        mag.nextRestartAt = now + min(wait, policy.maxMagRestartWait)
        mag.lastSample = -Double.infinity
        mag.firstPoll = now
    }

    static func text(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
