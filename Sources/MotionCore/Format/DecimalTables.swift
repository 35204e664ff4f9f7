/// The tables `DecimalToDouble` reads, as pointers that live as long as the process:
/// the parser fetches them once per scan, and reads them per number without the lazy
/// initialisation check of a global array or its bounds checks.
public struct DecimalTables: @unchecked Sendable {
    /// `PowersOfFive.words`: two words per power.
    @usableFromInline let powersOfFive: UnsafePointer<UInt64>
    /// 10^0 ... 10^22, each exact in a Double.
    @usableFromInline let powersOfTen: UnsafePointer<Double>
    /// 10^0 ... 10^8 as integers: the factor that appends n digits to a significand.
    @usableFromInline let integerPowersOfTen: UnsafePointer<UInt64>

    public static let shared = DecimalTables()

    private init() {
        let five = UnsafeMutablePointer<UInt64>.allocate(capacity: PowersOfFive.words.count)
        five.initialize(from: PowersOfFive.words, count: PowersOfFive.words.count)
        powersOfFive = UnsafePointer(five)
        let tens = DoubleText.exactPowersOfTen
        let ten = UnsafeMutablePointer<Double>.allocate(capacity: tens.count)
        ten.initialize(from: tens, count: tens.count)
        powersOfTen = UnsafePointer(ten)
        let integers = UnsafeMutablePointer<UInt64>.allocate(capacity: 9)
        var power: UInt64 = 1
        for k in 0..<9 { integers[k] = power; power *= 10 }
        integerPowersOfTen = UnsafePointer(integers)
    }
}
