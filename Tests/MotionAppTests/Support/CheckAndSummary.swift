import Foundation
import Testing

/// `check PATH` and `summary PATH --json` on one file, with the rows `check` counts per
/// source expected equal to those `summary` read (the two readers must agree on them).
enum CheckAndSummary {
    static func run(_ path: String) throws -> (check: Binary.Result, summary: [String: Any]) {
        let check = try Binary.run(["check", path])
        let summary = try Binary.run(["summary", path, "--json"])
        #expect(summary.status == 0, "\(summary.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [String: Int])
        #expect(!rows.isEmpty)
        for (letter, n) in rows {
            let line = check.stdout.split(separator: "\n").first { $0.hasPrefix("  \(letter) ") }
            let counted = line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            #expect(counted == n, "\(letter): check \(String(describing: line)), summary \(n)")
        }
        return (check, object)
    }
}
