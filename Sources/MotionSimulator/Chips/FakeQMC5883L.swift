import IMUDrivers
import MotionMath

/// A register-level QMC5883L, from the QST datasheet rev 1.0 §9: chip ID 0xFF at 0DH,
/// power-on standby (control 1 = 0), SOFT_RST restores power-on values, continuous
/// measurements at ODR 10/50/100/200 Hz from the moment the mode is set; status DRDY,
/// OVL and DOR; reading any data register clears DRDY and DOR. Data: little-endian X, Y,
/// Z at 12000 (±2 G) or 3000 (±8 G) LSB per gauss, OVL and clamping beyond ±32767.
public final class FakeQMC5883L: FakeMagnetometerChip {
    public var truth: PhysicalTruth
    public var reachable: () -> Bool = { true }
    public var dataReadyNeverSet = false
    private var registers = [UInt8](repeating: 0, count: 14)
    private var clock = FakeSampleClock()

    private static let status = 0x06, control1 = 0x09, control2 = 0x0A, chipID = 0x0D
    private static let lsbPerGauss: [Double] = [12000, 3000, 12000, 3000]
    private static let rates: [Double] = [10, 50, 100, 200]

    public init(truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.truth = truth
        powerCycle()
    }

    public var acknowledges: Bool { reachable() }

    public func powerCycle() {
        registers = [UInt8](repeating: 0, count: 14)
        registers[Self.chipID] = 0xFF
        clock.configure(rateHz: nil, at: 0)
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < registers.count, r != Self.chipID, r > Self.status + 2 else { continue }
            if r == Self.control2, value & 0x80 != 0 { powerCycle(); continue }
            registers[r] = value
            if r == Self.control1 {
                clock.configure(rateHz: value & 0x03 == 0x01 ? Self.rates[Int(value >> 2 & 0x03)] : nil, at: time)
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        if !dataReadyNeverSet, let sample = clock.newSample(at: time) {
            if registers[Self.status] & 0x01 != 0 || sample.skipped { registers[Self.status] |= 0x04 }
            latch(truth(sample.time).magneticField)
        }
        var touchedData = false
        let out = (0..<count).map { i -> UInt8 in
            let r = Int(register) + i
            if r < Self.status { touchedData = true }
            return r < registers.count ? registers[r] : 0
        }
        if touchedData { registers[Self.status] &= ~0x05 }
        return out
    }

    private func latch(_ field: Vector3) {
        let perGauss = Self.lsbPerGauss[Int(registers[Self.control1] >> 4 & 0x03)]
        var overflow = false
        for axis in 0..<3 {
            let c = FakeRegisterCoding.counts(field[axis] / 100, perCount: 1 / perGauss)
            if c >= 32767 || c <= -32768 { overflow = true }
            FakeRegisterCoding.storeLittleEndian(c, into: &registers, at: 2 * axis)
        }
        registers[Self.status] = (registers[Self.status] & 0x04) | 0x01 | (overflow ? 0x02 : 0)
    }
}
