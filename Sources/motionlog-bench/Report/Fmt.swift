import Foundation

/// Number formatting for the table.
enum Fmt {
    static func f(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }
    static func rate(_ v: Double) -> String {
        v >= 1e6 ? "\(f(v / 1e6, 2)) M/s" : "\(f(v / 1e3, 0)) k/s"
    }
    static func opt(_ v: Double?, _ digits: Int) -> String { v.map { f($0, digits) } ?? "—" }
}
