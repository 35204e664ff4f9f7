import Foundation

/// Checks that the writers compared in the format figure wrote the same rows: every file
/// is parsed back (source, label, then each number as a Double) and compared row by row.
/// A mismatch means the comparison would not be fair, so the figure is not reported.
enum SameRowsCheck {
    /// Nil when all files hold the same rows; otherwise what differs and where.
    static func mismatch(reference: String, others: [String]) -> String? {
        guard let expected = rows(reference) else { return "cannot read \(reference)" }
        for path in others {
            guard let actual = rows(path) else { return "cannot read \(path)" }
            guard actual.count == expected.count else {
                return "\(path) has \(actual.count) rows, \(reference) has \(expected.count)"
            }
            for i in expected.indices where actual[i] != expected[i] {
                return "row \(i + 1) differs: \(reference) has \(expected[i]), \(path) has \(actual[i])"
            }
        }
        return nil
    }

    /// One parsed row: the two letters, then the numbers (NaN compared as equal).
    struct ParsedRow: Equatable, CustomStringConvertible {
        var letters: String
        var numbers: [Double]

        static func == (a: ParsedRow, b: ParsedRow) -> Bool {
            a.letters == b.letters && a.numbers.count == b.numbers.count
                && zip(a.numbers, b.numbers).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        }

        var description: String { letters + "," + numbers.map { "\($0)" }.joined(separator: ",") }
    }

    static func rows(_ path: String) -> [ParsedRow]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var out: [ParsedRow] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("Source, ") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3 else { return nil }
            var numbers: [Double] = []
            for f in fields.dropFirst(2) {
                guard let v = Double(f) else { return nil }
                numbers.append(v)
            }
            out.append(ParsedRow(letters: String(fields[0]) + String(fields[1]), numbers: numbers))
        }
        return out
    }
}
