import IMUDrivers
import MotionMath

/// A register-level HMC5883L, from the Honeywell datasheet (Form #900405 rev E):
/// identity "H43" at 10–12; power-on CRA 0x10, CRB 0x20, mode 0x01 (single measurement);
/// a single measurement takes MA/160 s, then the mode register returns to idle (MD 11);
/// continuous mode measures at the DO rate. Data big-endian in the order X, Z, Y at the
/// gain's LSB per gauss, −4096 on a channel beyond −2048…2047. The data registers lock
/// while partly read or after the mode register is read, until all six are read; the
/// register pointer rolls from 08 back to 03 and from 12 to 00. No soft reset.
public final class FakeHMC5883L: FakeMagnetometerChip {
    public var truth: PhysicalTruth
    public var reachable: () -> Bool = { true }
    public var dataReadyNeverSet = false
    private var registers = [UInt8](repeating: 0, count: 13)
    private var clock = FakeSampleClock()
    /// The end of the single measurement in progress.
    private var singleDoneAt: Double?
    private var locked = false
    private var unread = Set<Int>()

    private static let configA = 0, configB = 1, mode = 2, dataX = 3, status = 9
    private static let lsbPerGauss: [Double] = [1370, 1090, 820, 660, 440, 390, 330, 230]
    private static let rates: [Double] = [0.75, 1.5, 3, 7.5, 15, 30, 75, 75]

    public init(truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.truth = truth
        powerCycle()
    }

    public var acknowledges: Bool { reachable() }

    /// Power-on: the default single mode measures once.
    public func powerCycle() {
        registers = [0x10, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x48, 0x34, 0x33]
        clock.configure(rateHz: nil, at: 0)
        singleDoneAt = nil
        locked = false
    }

    private static func pointer(after r: Int) -> Int { r == 8 ? 3 : (r >= 12 ? 0 : r + 1) }
    private var averaged: Double { Double(1 << Int(registers[Self.configA] >> 5 & 0x03)) }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        var r = Int(register)
        for value in bytes {
            if r <= Self.mode {
                registers[r] = value
                locked = false
                if r == Self.mode || r == Self.configA { reconfigure(at: time) }
            }
            r = Self.pointer(after: r)
        }
    }

    private func reconfigure(at time: Double) {
        singleDoneAt = nil
        switch registers[Self.mode] & 0x03 {
        case 0x00: clock.configure(rateHz: Self.rates[Int(registers[Self.configA] >> 2 & 0x07)], at: time)
        case 0x01:
            clock.configure(rateHz: nil, at: time)
            singleDoneAt = time + averaged / 160
        default: clock.configure(rateHz: nil, at: time)
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        if !dataReadyNeverSet {
            if let done = singleDoneAt, time >= done - 1e-9 {
                singleDoneAt = nil
                if !locked { latch(truth(done).magneticField) }
                registers[Self.mode] |= 0x03   // back to idle
            } else if !locked, let sample = clock.newSample(at: time) {
                latch(truth(sample.time).magneticField)
            }
        }
        var r = Int(register)
        var out: [UInt8] = []
        var touchedData = false
        for _ in 0..<count {
            out.append(r < registers.count ? registers[r] : 0)
            if r >= Self.dataX && r < Self.dataX + 6 { unread.remove(r); touchedData = true }
            if r == Self.mode { locked = true }
            r = Self.pointer(after: r)
        }
        // Partly read: locked; all six read: released.
        if touchedData { locked = !unread.isEmpty }
        return out
    }

    private func latch(_ field: Vector3) {
        let perGauss = Self.lsbPerGauss[Int(registers[Self.configB] >> 5)]
        for (slot, axis) in [0, 2, 1].enumerated() {   // registers in the order X, Z, Y
            var c = FakeRegisterCoding.counts(field[axis] / 100, perCount: 1 / perGauss, limit: 4095, floor: -4096)
            if c > 2047 || c < -2048 { c = -4096 }
            FakeRegisterCoding.storeBigEndian(c, into: &registers, at: Self.dataX + 2 * slot)
        }
        registers[Self.status] = 0x01
        unread = Set(Self.dataX..<(Self.dataX + 6))
    }
}
