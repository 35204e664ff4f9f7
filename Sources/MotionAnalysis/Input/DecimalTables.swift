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
        let tens: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]
        let ten = UnsafeMutablePointer<Double>.allocate(capacity: tens.count)
        ten.initialize(from: tens, count: tens.count)
        powersOfTen = UnsafePointer(ten)
    }
}
