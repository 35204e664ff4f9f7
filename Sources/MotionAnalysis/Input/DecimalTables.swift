import MotionCore

/// The tables `DecimalToDouble` reads, as pointers that live as long as the process:
/// the parser fetches them once per scan, and reads them per number without the lazy
/// initialisation check of a global array or its bounds checks.
struct DecimalTables: @unchecked Sendable {
    /// `PowersOfFive.words`: two words per power.
    let powersOfFive: UnsafePointer<UInt64>
    /// 10^0 ... 10^22, each exact in a Double.
    let powersOfTen: UnsafePointer<Double>

    static let shared = DecimalTables()

    private init() {
        let five = UnsafeMutablePointer<UInt64>.allocate(capacity: PowersOfFive.words.count)
        five.initialize(from: PowersOfFive.words, count: PowersOfFive.words.count)
        powersOfFive = UnsafePointer(five)
        let tens = DoubleText.exactPowersOfTen
        let ten = UnsafeMutablePointer<Double>.allocate(capacity: tens.count)
        ten.initialize(from: tens, count: tens.count)
        powersOfTen = UnsafePointer(ten)
    }
}
