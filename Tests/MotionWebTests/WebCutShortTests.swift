import Foundation
import MotionCore
import Testing

/// A CSV cut short after it was closed (an interrupted copy beside its original metadata)
/// was listed with a `clean` badge and the metadata's duration, and its page said nothing.
@Suite struct WebCutShortTests {
    @Test func theListAndThePageSayTheFileWasCutShort() async throws {
        let f = try WebFixture()
        let name = "20260101080000"
        let csv = try f.addRecording(name, seconds: 120)
        let lines = csv.split(separator: "\n")
        try (lines.prefix(lines.count / 2).joined(separator: "\n") + "\n")
            .write(toFile: f.folder + "/\(name).csv", atomically: false, encoding: .utf8)
        try await f.app().test(.router) { client in
            let list = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(list.contains("<span class=\"badge bad\">cut short</span>"), "\(list)")
            #expect(!list.contains(">clean</span>"), "\(list)")
            let page = String(buffer: try await client.execute(uri: "/recordings/\(name)", method: .get).body)
            #expect(page.contains("\(name).csv is shorter than when it was closed: the metadata says 1200 A rows, 120 L rows"), "\(page)")
            #expect(page.contains("cut short after recording (an interrupted copy?)"), "\(page)")
            // The duration is the rows' (about a minute), not the metadata's 2 min.
            #expect(!list.contains("<span>2 min</span>") && !page.contains("<span>2 min</span>"), "\(page)")
        }
    }
}
