import IMUDrivers
import MotionMath

/// A register-level BNO055, from BST-BNO055-DS000 §3–4: two register pages (PAGE_ID),
/// CHIP_ID 0xA0 (ACC 0xFB, MAG 0x32, GYR 0x0F), power-on CONFIGMODE with UNIT_SEL 0x80,
/// RST_SYS restores that; data registers read 0 in CONFIGMODE and hold in suspend
/// (PWR_MODE 2); only OPR_MODE, PWR_MODE and PAGE_ID take writes outside CONFIGMODE.
///
/// AMG mode: accelerometer in m/s² (100 LSB per m/s²) or mg (1 LSB) and gyroscope in °/s
/// (16 LSB) or rad/s (900 LSB) as UNIT_SEL says, magnetometer 16 LSB per µT refreshed at
/// MAG_Config's rate; little-endian; the axis remap of AXIS_MAP_CONFIG / AXIS_MAP_SIGN
/// applied; values clipped at the configured accelerometer/gyroscope range.
///
/// NDOF (and NDOF_FMC_OFF): a perfectly calibrated chip whose fusion is the truth's
/// `OrientationTruth` (not a model of Bosch's algorithm). The fusion fixes the sensors
/// (Table 3-4, 3-14): accelerometer ±4 g, gyroscope ±2000 °/s, magnetometer 20 Hz, the
/// page-1 configuration ignored. ACC/GYR/MAG hold offset-compensated data (§3.6.5: the
/// truth's gyroscope and hard-iron offsets removed); QUA_DATA the attitude (chip →
/// magnetic East-North-Up, w ≥ 0) at 2^14 LSB per unit (§3.6.5.5); GRV_DATA gravity and
/// LIA_DATA the clipped specific force minus gravity, both with the accelerometer's sign
/// and unit (§3.6.5.6–7); all after the axis remap. The fusion registers stay 0 for the 7 ms
/// switching time after OPR_MODE enters NDOF (Table 3-6), and whenever the truth has no
/// orientation. CALIB_STAT reads `calibrationStatus` in the fusion modes, 0 otherwise. Not
/// modelled: EUL_DATA (reads 0), the IMU, COMPASS and M4G modes' fusion output (0), the
/// magnetometer's soft iron, a mirrored axis remap's attitude (0).
public final class FakeBNO055: FakeInertialChip {
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    /// Fault: the magnetometer stops refreshing.
    public var dataReadyNeverSet = false
    /// CALIB_STAT in the fusion modes: SYS [7:6], GYR [5:4], ACC [3:2], MAG [1:0] (3 = calibrated).
    public var calibrationStatus: UInt8 = 0xFF
    private var pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 2)
    private var magClock = FakeSampleClock()
    /// When OPR_MODE last entered a fusion mode.
    private var fusionSince = 0.0

    private static let pageID = 0x07, acc = 0x08, mag = 0x0E, gyr = 0x14, qua = 0x20, lia = 0x28, grv = 0x2E
    private static let calibStat = 0x35, unitSel = 0x3B, oprMode = 0x3D
    private static let pwrMode = 0x3E, sysTrigger = 0x3F, axisMapConfig = 0x41, axisMapSign = 0x42
    private static let accConfig = 0x08, magConfig = 0x09, gyrConfig0 = 0x0A
    private static let magRates: [Double] = [2, 6, 8, 10, 15, 20, 25, 30]
    private static let gyroRanges: [Double] = [2000, 1000, 500, 250, 125, 125, 125, 125]
    /// Table 3-14: the magnetometer's rate in the fusion modes that use it.
    private static let fusionMagRates: [UInt8: Double] = [0x09: 20, 0x0A: 50, 0x0B: 20, 0x0C: 20]
    /// NDOF_FMC_OFF and NDOF: the modes whose fusion output is modelled.
    private static let ndofModes: Set<UInt8> = [0x0B, 0x0C]
    /// Table 3-6: CONFIGMODE → any operation mode.
    public static let modeSwitchSeconds = 0.007
    private static let standardGravity = 9.80665

    public init(identity: UInt8 = 0xA0, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        powerCycle()
    }

    public func powerCycle() {
        pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 2)
        pages[0][0x00] = identity; pages[0][0x01] = 0xFB; pages[0][0x02] = 0x32; pages[0][0x03] = 0x0F
        pages[0][Self.unitSel] = 0x80
        pages[0][Self.axisMapConfig] = 0x24
        pages[1][Self.accConfig] = 0x0D
        pages[1][Self.magConfig] = 0x6D
        pages[1][Self.gyrConfig0] = 0x38
        magClock.configure(rateHz: nil, at: 0)
    }

    private var page: Int { Int(pages[0][Self.pageID] & 0x01) }
    private var mode: UInt8 { pages[0][Self.oprMode] & 0x0F }
    private var fusionMode: Bool { mode >= 0x08 && mode <= 0x0C }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128, r > 0x06 || page == 1 else { continue }
            if r == Self.pageID { pages[0][r] = value & 0x01; pages[1][r] = value & 0x01; continue }
            if page == 0 && r == Self.sysTrigger && value & 0x20 != 0 { powerCycle(); continue }
            // Only OPR_MODE, PWR_MODE and the page may change outside CONFIGMODE.
            guard mode == 0 || (page == 0 && (r == Self.oprMode || r == Self.pwrMode)) else { continue }
            let previous = mode
            pages[page][r] = value
            if page == 0 && r == Self.oprMode {
                let new = value & 0x0F
                if new == 0 { for k in Self.acc..<0x34 { pages[0][k] = 0 } }
                if new != previous && fusionMode { fusionSince = time }
                let rate: Double?
                if let fusionRate = Self.fusionMagRates[new] {
                    rate = fusionRate
                } else {
                    rate = [0x02, 0x04, 0x06, 0x07].contains(new) ? Self.magRates[Int(pages[1][Self.magConfig] & 0x07)] : nil
                }
                magClock.configure(rateHz: rate, at: time)
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        pages[0][0x00] = identity
        pages[0][Self.calibStat] = fusionMode ? calibrationStatus : 0
        if (mode == 0x07 || fusionMode) && pages[0][Self.pwrMode] & 0x03 != 0x02 { sample(at: time) }
        return FakeRegisterCoding.burst(pages[page], from: register, count: count)
    }

    /// The remap as a matrix: output axis i is chip axis (AXIS_MAP_CONFIG bits [2i+1:2i]),
    /// negated when AXIS_MAP_SIGN bit (2 − i) is set.
    private var remap: Matrix3 {
        let config = pages[0][Self.axisMapConfig], sign = pages[0][Self.axisMapSign]
        var m = Matrix3(rows: .zero, .zero, .zero)
        for i in 0..<3 {
            m[i, min(2, Int(config >> (2 * i) & 0x03))] = sign >> (2 - i) & 0x01 != 0 ? -1 : 1
        }
        return m
    }

    /// An acceleration in g as ACC/LIA/GRV words: 1 mg per LSB, or 1/100 m/s² per LSB.
    private func accelCounts(_ g: Double) -> Int {
        pages[0][Self.unitSel] & 0x01 != 0 ? FakeRegisterCoding.counts(g * 1000, perCount: 1)
                                           : FakeRegisterCoding.counts(g * Self.standardGravity, perCount: 0.01)
    }

    private func store(_ v: Vector3, at register: Int, counts: (Double) -> Int) {
        for axis in 0..<3 {
            FakeRegisterCoding.storeLittleEndian(counts(v[axis]), into: &pages[0], at: register + 2 * axis)
        }
    }

    private func sample(at time: Double) {
        let state = truth(time)
        let units = pages[0][Self.unitSel]
        let fusion = fusionMode
        let accelRange = fusion ? 4.0 : [2.0, 4, 8, 16][Int(pages[1][Self.accConfig] & 0x03)]
        let gyroRange = fusion ? 2000.0 : Self.gyroRanges[Int(pages[1][Self.gyrConfig0] & 0x07)]
        let remap = self.remap
        // In the fusion modes the calibrated chip outputs offset-compensated rates (§3.6.5.3).
        let rate = state.angularRate - (fusion ? state.orientation?.gyroOffset ?? .zero : .zero)
        let clipped = Vector3(max(-accelRange, min(accelRange, state.specificForce.x)),
                              max(-accelRange, min(accelRange, state.specificForce.y)),
                              max(-accelRange, min(accelRange, state.specificForce.z)))
        store(remap * clipped, at: Self.acc, counts: accelCounts)
        store(remap * rate, at: Self.gyr) { r in
            let dps = max(-gyroRange, min(gyroRange, r * FakeRegisterCoding.degreesPerRadian))
            return units & 0x02 != 0 ? FakeRegisterCoding.counts(dps / FakeRegisterCoding.degreesPerRadian, perCount: 1.0 / 900)
                                     : FakeRegisterCoding.counts(dps, perCount: 1.0 / 16)
        }
        if !dataReadyNeverSet, let s = magClock.newSample(at: time) {
            let then = truth(s.time)
            let field = then.magneticField - (fusion ? then.orientation?.magOffset ?? .zero : .zero)
            store(remap * field, at: Self.mag) { FakeRegisterCoding.counts($0, perCount: 1.0 / 16) }
        }
        guard fusion else { return }
        // Fusion output: 0 until the switching time has passed, without a truth to report,
        // outside NDOF, or for a mirrored remap (no rotation gives it).
        guard Self.ndofModes.contains(mode), time >= fusionSince + Self.modeSwitchSeconds - 1e-9,
              let o = state.orientation, remap.determinant > 0 else {
            for k in Self.qua..<(Self.grv + 6) { pages[0][k] = 0 }
            return
        }
        // Output axes = remap · chip axes, so the output frame's attitude is q_chip · remapᵀ.
        var q = (o.attitude.normalized * Quaternion(rotationMatrix: remap.transposed)).normalized
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        for (i, component) in [q.w, q.x, q.y, q.z].enumerated() {
            FakeRegisterCoding.storeLittleEndian(FakeRegisterCoding.counts(component, perCount: 1.0 / 16384),
                                                 into: &pages[0], at: Self.qua + 2 * i)
        }
        store(remap * (clipped - o.gravity), at: Self.lia, counts: accelCounts)
        store(remap * o.gravity, at: Self.grv, counts: accelCounts)
    }
}
