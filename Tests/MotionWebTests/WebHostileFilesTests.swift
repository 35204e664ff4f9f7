import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// A folder holding metadata or a cached summary with numbers no recorder writes (a time of
/// 1e19, a row count of 2^63 − 1, a duration of 2^63 s). Before, formatting them trapped and
/// ended the process serving the page: `serve`, or the daemon and its recording. Now the
/// metadata counts as unreadable, the cache is recomputed, and every page answers.
@Suite struct WebHostileFilesTests {
    /// Rewrites `NAME.json` with `change` applied to its JSON object.
    func editMetadata(_ f: WebFixture, _ name: String, _ change: (inout [String: Any]) -> Void) throws {
        let path = f.folder + "/\(name).json"
        var document = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        change(&document)
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        try f.age("\(name).json")
        try f.age("\(name).csv")
    }

    func pagesAnswer(_ f: WebFixture, _ names: [String]) async throws {
        try await f.app().test(.router) { client in
            let list = try await client.execute(uri: "/", method: .get)
            #expect(list.status == .ok)
            for name in names {
                let page = try await client.execute(uri: "/recordings/\(name)", method: .get)
                #expect(page.status == .ok, "\(name)")
                #expect(try await client.execute(uri: "/api/recordings/\(name)/summary", method: .get).status == .ok, "\(name)")
            }
        }
    }

    @Test(arguments: [("firstWhen", 1e19), ("firstWhen", -1e19), ("lastWhen", 1e300)])
    func aTimeNoRecorderWritesLeavesThePagesStanding(field: String, value: Double) async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try editMetadata(f, "20260101080000") { doc in
            var file = doc["file"] as? [String: Any] ?? [:]
            file[field] = value
            doc["file"] = file
        }
        try await pagesAnswer(f, ["20260101080000"])
        // The page says the metadata could not be read (not that there is none), and still
        // gives the summary's findings.
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("20260101080000.json could not be read: it holds file.\(field)"), "\(page)")
            #expect(page.contains("unreadable: it holds file.\(field)") && !page.contains("No metadata beside"), "\(page)")
        }
    }

    /// Altitudes no receiver gives but the format allows: an elevation gain beyond Int
    /// trapped as the page was built, and the server died on the first request.
    @Test func anElevationGainBeyondIntLeavesThePageStanding() async throws {
        let f = try WebFixture()
        var csv = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
        for (k, altitude) in ["0", "0", "1e19", "1e19", "1e308", "1e308"].enumerated() {
            csv += "L,W,\(1_790_000_000 + k),\(52.5 + Double(k) * 1e-5),13.4,\(altitude),1.5,90.0,0.0,3.0,4.6,3\n"
        }
        try f.addCopiedCSV("20260101080000", csv)
        try await pagesAnswer(f, ["20260101080000"])
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("↑ 1e+"), "\(page)")
            #expect(!page.contains("0000000000000000000"), "\(page)")   // chart labels too
        }
    }

    @Test func rowCountsOfPartsThatWouldOverflowLeaveThePageStanding() async throws {
        let f = try WebFixture()
        let id = "11111111-2222-3333-4444-555555555555"
        try f.addRecording("20260101080000", endReason: "rotated", rotated: (id: id, part: 1, previous: nil, elapsed: 0))
        try f.addRecording("20260101080020", start: 1_790_000_020, rotated: (id: id, part: 2, previous: "20260101080000", elapsed: 20))
        for name in ["20260101080000", "20260101080020"] {
            try editMetadata(f, name) { doc in
                var file = doc["file"] as? [String: Any] ?? [:]
                file["rows"] = ["A": 200, "L": Int64.max]
                doc["file"] = file
            }
        }
        try await pagesAnswer(f, ["20260101080000", "20260101080020"])
    }

    /// A cache whose stamps match its CSV but whose numbers were edited: recomputed.
    @Test func aCachedSummaryWithImplausibleNumbersIsRecomputed() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        try f.addRecording(name)
        try f.age("\(name).csv")
        try f.age("\(name).json")
        let csv = f.folder + "/\(name).csv"
        let truth = try SummaryCache.summary(for: [csv])
        let cache = SummaryCache.cachePath(for: csv)
        let stored = try String(contentsOfFile: cache, encoding: .utf8)
        for edit in ["\"duration_s\":9223372036854775807", "\"start\":-1e19", "\"max_speed_mps\":1e308"] {
            let key = String(edit.prefix { $0 != ":" })
            let edited = stored.replacingOccurrences(of: key + ":[-0-9.e+]+", with: edit, options: .regularExpression)
            #expect(edited != stored, "\(key) is not in the cache")
            try edited.write(toFile: cache, atomically: false, encoding: .utf8)
            #expect(SummaryCache.load(for: [csv]) == nil, "\(edit)")
            try await pagesAnswer(f, [name])
            #expect(try SummaryCache.summary(for: [csv]).durationS == truth.durationS, "\(edit)")
        }
    }
}
