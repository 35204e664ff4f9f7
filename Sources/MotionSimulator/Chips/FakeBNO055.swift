import IMUDrivers
import MotionMath

/// A register-level BNO055, from BST-BNO055-DS000 §3–4: two register pages (PAGE_ID),
/// CHIP_ID 0xA0 (ACC 0xFB, MAG 0x32, GYR 0x0F), power-on CONFIGMODE with UNIT_SEL 0x80,
/// RST_SYS restores that; data registers read 0 in CONFIGMODE and hold in suspend
/// (PWR_MODE 2). In AMG mode: accelerometer in m/s² (100 LSB per m/s²) or mg (1 LSB) and
/// gyroscope in °/s (16 LSB) or rad/s (900 LSB) as UNIT_SEL says, magnetometer 16 LSB per
/// µT refreshed at MAG_Config's rate; little-endian; the axis remap of AXIS_MAP_CONFIG /
/// AXIS_MAP_SIGN applied; values clipped at the configured accelerometer/gyroscope range.
public final class FakeBNO055: FakeInertialChip {
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    /// Fault: the magnetometer stops refreshing.
    public var dataReadyNeverSet = false
    private var pages = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 2)
    private var magClock = FakeSampleClock()

    private static let pageID = 0x07, acc = 0x08, mag = 0x0E, gyr = 0x14, unitSel = 0x3B, oprMode = 0x3D
    private static let pwrMode = 0x3E, sysTrigger = 0x3F, axisMapConfig = 0x41, axisMapSign = 0x42
    private static let accConfig = 0x08, magConfig = 0x09, gyrConfig0 = 0x0A
    private static let magRates: [Double] = [2, 6, 8, 10, 15, 20, 25, 30]
    private static let gyroRanges: [Double] = [2000, 1000, 500, 250, 125, 125, 125, 125]

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

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128, r > 0x06 || page == 1 else { continue }
            if r == Self.pageID { pages[0][r] = value & 0x01; pages[1][r] = value & 0x01; continue }
            if page == 0 && r == Self.sysTrigger && value & 0x20 != 0 { powerCycle(); continue }
            // Only OPR_MODE, PWR_MODE and the page may change outside CONFIGMODE.
            guard mode == 0 || (page == 0 && (r == Self.oprMode || r == Self.pwrMode)) else { continue }
            pages[page][r] = value
            if page == 0 && r == Self.oprMode {
                if value & 0x0F == 0 { for k in Self.acc..<0x34 { pages[0][k] = 0 } }
                let hasMag = [0x02, 0x04, 0x06, 0x07].contains(value & 0x0F)
                magClock.configure(rateHz: hasMag ? Self.magRates[Int(pages[1][Self.magConfig] & 0x07)] : nil, at: time)
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        pages[0][0x00] = identity
        if mode == 0x07 && pages[0][Self.pwrMode] & 0x03 != 0x02 { sample(at: time) }
        return (0..<count).map { i in Int(register) + i < 128 ? pages[page][Int(register) + i] : 0 }
    }

    /// Chip-frame vector → output axes: output axis i is remapped chip axis (AXIS_MAP_CONFIG
    /// bits [2i+1:2i]), negated when AXIS_MAP_SIGN bit (2 − i) is set.
    private func remapped(_ v: Vector3) -> Vector3 {
        let config = pages[0][Self.axisMapConfig], sign = pages[0][Self.axisMapSign]
        var out = Vector3.zero
        for i in 0..<3 {
            let source = min(2, Int(config >> (2 * i) & 0x03))
            out[i] = v[source] * (sign >> (2 - i) & 0x01 != 0 ? -1 : 1)
        }
        return out
    }

    private func sample(at time: Double) {
        let state = truth(time)
        let units = pages[0][Self.unitSel]
        let accelRange = [2.0, 4, 8, 16][Int(pages[1][Self.accConfig] & 0x03)]
        let gyroRange = Self.gyroRanges[Int(pages[1][Self.gyrConfig0] & 0x07)]
        let a = remapped(state.specificForce), g = remapped(state.angularRate)
        for axis in 0..<3 {
            let force = max(-accelRange, min(accelRange, a[axis]))
            // 1 mg per LSB, or 1/100 m/s² per LSB (standard gravity 9.80665 m/s²).
            let ac = units & 0x01 != 0 ? FakeRegisterCoding.counts(force * 1000, perCount: 1)
                                       : FakeRegisterCoding.counts(force * 9.80665, perCount: 0.01)
            let dps = max(-gyroRange, min(gyroRange, g[axis] * FakeRegisterCoding.degreesPerRadian))
            let gc = units & 0x02 != 0 ? FakeRegisterCoding.counts(dps / FakeRegisterCoding.degreesPerRadian, perCount: 1.0 / 900)
                                       : FakeRegisterCoding.counts(dps, perCount: 1.0 / 16)
            FakeRegisterCoding.storeLittleEndian(ac, into: &pages[0], at: Self.acc + 2 * axis)
            FakeRegisterCoding.storeLittleEndian(gc, into: &pages[0], at: Self.gyr + 2 * axis)
        }
        if !dataReadyNeverSet, let s = magClock.newSample(at: time) {
            let m = remapped(truth(s.time).magneticField)
            for axis in 0..<3 {
                FakeRegisterCoding.storeLittleEndian(FakeRegisterCoding.counts(m[axis], perCount: 1.0 / 16),
                                                     into: &pages[0], at: Self.mag + 2 * axis)
            }
        }
    }
}
