/// HMC5883L registers, from Honeywell "3-Axis Digital Compass IC HMC5883L" datasheet
/// (Form #900405 rev E), "Register Map" (Table 2) and the register descriptions after it.
enum HMC5883LRegister {
    static let address: UInt8 = 0x1E
    /// Configuration register A: MA [6:5] samples averaged, DO [4:2] output rate, MS [1:0] bias.
    static let configA: UInt8 = 0x00
    /// Configuration register B: GN [7:5] gain.
    static let configB: UInt8 = 0x01
    /// Mode register: MD [1:0] (00 continuous, 01 single = power-on default, 1x idle).
    /// Reading it locks the data registers until all six are read.
    static let mode: UInt8 = 0x02
    /// Data output X MSB, X LSB, Z MSB, Z LSB, Y MSB, Y LSB: big-endian, in the order X, Z, Y.
    /// The pointer rolls back from 08 to 03, and the six are locked until all are read.
    static let dataXMSB: UInt8 = 0x03
    /// Identification registers A, B, C: "H43".
    static let identityA: UInt8 = 0x0A
    static let identity: [UInt8] = [0x48, 0x34, 0x33]

    /// MD = 01: one measurement, then the mode register returns to idle (MD = 1x).
    static let single: UInt8 = 0x01
    /// A data register reads −4096 when its channel overflowed (ADC or math).
    static let overflowValue: Int16 = -4096
}
