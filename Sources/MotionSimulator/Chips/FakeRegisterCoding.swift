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

    static let degreesPerRadian = 57.29577951308232
}
