import IMUDrivers
import MotionMath

/// A register-level LIS3MDL, from DS DocID024204: WHO_AM_I 0x3D, power-on CTRL_REG1 0x10,
/// CTRL_REG3 0x03 (power-down), SOFT_RST/REBOOT restore them; sub-address MSB for
/// auto-increment; output rate from DO (or FAST_ODR by operating mode); STATUS ZYXDA /
/// ZYXOR, cleared by reading the data. Data: little-endian, `count = field × LSB/gauss`
/// (6842, 3421, 2281, 1711 for ±4 … ±16 gauss, Table 2), saturating at the 16-bit limits.
public final class FakeLIS3MDL: FakeMagnetometerChip {
    public var truth: PhysicalTruth
    public var reachable: () -> Bool = { true }
    public var dataReadyNeverSet = false
    public var identity: UInt8 = 0x3D
    private var registers = [UInt8](repeating: 0, count: 0x34)
    private var clock = FakeSampleClock()

    private static let whoAmI = 0x0F, ctrl1 = 0x20, ctrl2 = 0x21, ctrl3 = 0x22, status = 0x27, outX = 0x28
    private static let lsbPerGauss: [Double] = [6842, 3421, 2281, 1711]
    private static let rates: [Double] = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80]
    /// FAST_ODR rate by operating mode (low power, medium, high, ultra-high performance).
    private static let fastRates: [Double] = [1000, 560, 300, 155]

    public init(truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.truth = truth
        powerCycle()
    }

    public var acknowledges: Bool { reachable() }

    public func powerCycle() {
        registers = [UInt8](repeating: 0, count: 0x34)
        registers[Self.ctrl1] = 0x10
        registers[Self.ctrl3] = 0x03
        clock.configure(rateHz: nil, at: 0)
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        let start = Int(register & 0x7F), increment = register & 0x80 != 0
        for (i, value) in bytes.enumerated() {
            let r = start + (increment ? i : 0)
            guard r < registers.count, r != Self.whoAmI, r != Self.status else { continue }
            if r == Self.ctrl2, value & 0x0C != 0 { powerCycle(); continue }
            registers[r] = value
            if r == Self.ctrl1 || r == Self.ctrl3 {
                let c1 = registers[Self.ctrl1]
                let rate = c1 & 0x02 != 0 ? Self.fastRates[Int(c1 >> 5 & 0x03)] : Self.rates[Int(c1 >> 2 & 0x07)]
                clock.configure(rateHz: registers[Self.ctrl3] & 0x03 == 0 ? rate : nil, at: time)
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        if !dataReadyNeverSet, let sample = clock.newSample(at: time) {
            if registers[Self.status] & 0x08 != 0 || sample.skipped { registers[Self.status] |= 0x80 }
            registers[Self.status] |= 0x08
            let perGauss = Self.lsbPerGauss[Int(registers[Self.ctrl2] >> 5 & 0x03)]
            let field = truth(sample.time).magneticField
            // µT → gauss: 1 gauss = 100 µT.
            FakeRegisterCoding.storeAxes(field / 100, perCount: 1 / perGauss, order: .littleEndian,
                                         into: &registers, at: Self.outX)
        }
        let start = Int(register & 0x7F), increment = register & 0x80 != 0
        var touchedData = false
        let out = (0..<count).map { i -> UInt8 in
            let r = start + (increment ? i : 0)
            if r >= Self.outX && r < Self.outX + 6 { touchedData = true }
            return r < registers.count ? registers[r] : 0
        }
        if touchedData { registers[Self.status] = 0 }
        return out
    }
}
