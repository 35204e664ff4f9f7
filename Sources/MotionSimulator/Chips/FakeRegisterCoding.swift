import MotionMath

/// How the fakes turn a physical value into register bytes, the way the datasheets
/// describe the output: count = value ÷ (value per LSB), rounded to the nearest integer,
/// saturated at the output's limits, stored as 16-bit two's complement in the chip's byte
/// order. Written for the simulator alone: the drivers decode with their own code.
enum FakeRegisterCoding {
    static func counts(_ value: Double, perCount: Double, limit: Int = 32767, floor: Int = -32768) -> Int {
        let exact = value / perCount
        guard exact.isFinite else { return exact < 0 ? floor : limit }
        if exact >= Double(limit) { return limit }
        if exact <= Double(floor) { return floor }
        return Int(exact.rounded())
    }

    /// Two's complement of a count in 16 bits, as (high, low) bytes.
    static func twosComplement(_ count: Int) -> (high: UInt8, low: UInt8) {
        let word = count >= 0 ? count : count + 65536
        return (UInt8(word / 256), UInt8(word % 256))
    }

    /// High byte at `index`, low byte at `index + 1` (InvenSense).
    static func storeBigEndian(_ count: Int, into registers: inout [UInt8], at index: Int) {
        let b = twosComplement(count)
        registers[index] = b.high
        registers[index + 1] = b.low
    }

    /// Low byte at `index`, high byte at `index + 1` (AKM, ST).
    static func storeLittleEndian(_ count: Int, into registers: inout [UInt8], at index: Int) {
        let b = twosComplement(count)
        registers[index] = b.low
        registers[index + 1] = b.high
    }

    /// What a burst read of `count` bytes from `register` returns: the next register for each
    /// byte (the same one again without auto-increment); past the end of the file, 0.
    static func burst(_ registers: [UInt8], from register: UInt8, count: Int, autoIncrement: Bool = true) -> [UInt8] {
        (0..<count).map { i in
            let r = Int(register) + (autoIncrement ? i : 0)
            return r < registers.count ? registers[r] : 0
        }
    }

    /// The byte order of a chip's data words.
    enum ByteOrder {
        /// High byte first (InvenSense).
        case bigEndian
        /// Low byte first (AKM, ST, Bosch).
        case littleEndian
    }

    /// X, Y and Z of `value` as three consecutive words from `index` on, each encoded as
    /// `counts` says, in the chip's byte order.
    static func storeAxes(_ value: Vector3, perCount: Double, limit: Int = 32767, floor: Int = -32768,
                          order: ByteOrder, into registers: inout [UInt8], at index: Int) {
        for axis in 0..<3 {
            let count = counts(value[axis], perCount: perCount, limit: limit, floor: floor)
            switch order {
            case .bigEndian: storeBigEndian(count, into: &registers, at: index + 2 * axis)
            case .littleEndian: storeLittleEndian(count, into: &registers, at: index + 2 * axis)
            }
        }
    }

    static let degreesPerRadian = 57.29577951308232
}
