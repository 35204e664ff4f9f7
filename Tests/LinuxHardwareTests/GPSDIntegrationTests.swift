import Foundation
import Logging
import MotionCore
import Testing
@testable import LinuxHardware
#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd fed real receiver logs: the client's fixes must equal gpsd's own expected
/// TPV output (`.chk`), one per fix time.
@Suite(.serialized)
struct GPSDIntegrationTests {
    static let logs = ["mt3339", "neo-m8n", "ublox-neo-m9n-nmea", "nmea-rtk", "quectel", "tn200"]

    @Test(arguments: logs)
    func fixesEqualGPSDExpectedTPVs(log: String) throws {
        let expected = try GPSDFixtures.expectedFixes(log + ".log.chk")
        let tpvCount = try GPSDFixtures.tpvReports(log + ".log.chk").count
        let daemon = try GPSDDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let client = try daemon.watchingClient()
        try daemon.send(try GPSDFixtures.sentences(log + ".log"))
        try waitUntil("all \(tpvCount) TPV reports of \(log)") { client.statistics.tpvReports >= tpvCount }
        var fixes: [LocationFix] = []
        client.finish { fixes.append($0) }

        #expect(client.statistics.tpvReports == tpvCount)
        let differences = fixDifferences(fixes, expected)
        #expect(differences.isEmpty, "\(log): \(differences.joined(separator: "\n"))")
        #expect(client.health.backwardsFixes == 0)
        if log == "tn200" { #expect(fixes.isEmpty) } else { #expect(!fixes.isEmpty) }
    }

    /// Rows written from these fixes carry the TPV time as When, exactly.
    @Test func whenIsTheTPVTimeExactly() throws {
        let fixes = try GPSDFixtures.expectedFixes("nmea-rtk.log.chk")
        #expect(fixes.count > 100)
        let first = try #require(fixes.first)
        #expect(RowEncoder.line(Row(fix: first, label: Label.defaultLetter)).hasPrefix("L,W,1584538099.6,"))
    }

    /// gpsd's device list says whether it has a receiver: a recording without fixes can then
    /// tell "no receiver" from "no fix" (the summary's finding, the status's `no receiver`).
    @Test(arguments: [true, false])
    func theReceiversGPSDListsAreCounted(receiver: Bool) throws {
        let daemon = try GPSDDaemon()
        try daemon.start(receiver: receiver)
        defer { daemon.stop() }
        let client = try daemon.watchingClient()
        defer { client.stop() }
        try waitUntil("gpsd's device list") { client.health.receivers != nil }
        #expect(client.health.receivers == (receiver ? 1 : 0) && client.health.sessions == 1, "\(client.health)")
        #expect(client.health.statusText == (receiver ? nil : "no receiver"), "\(client.health)")
    }

    @Test func reconnectsAfterGPSDIsKilledAndRestarted() throws {
        let sentences = try GPSDFixtures.sentences("mt3339.log")
        let half = sentences.count / 2
        let firstHalf = Array(sentences[..<half]), secondHalf = Array(sentences[half...])
        let daemon = try GPSDDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let client = try daemon.watchingClient()
        var fixes: [LocationFix] = []
        let tick = Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: 0)
        try daemon.send(firstHalf)
        try waitUntil("fixes from the first half") {
            client.poll(at: tick) { fixes.append($0) }
            return fixes.count >= 3
        }
        daemon.stop(signal: SIGKILL)
        try waitUntil("the client to notice gpsd is gone") { client.health.disconnects == 1 }
        #expect(!client.isConnected)
        // The fix of the lost session is not the state now (a status said "3D fix" for as
        // long as gpsd was gone).
        #expect(client.health.lastMode == 0 && client.health.connected == false && client.health.statusText == "no gpsd",
                "\(client.health)")

        try daemon.start()
        try waitUntil("the client to reconnect") { client.statistics.watching }
        let before = fixes.count
        try daemon.send(secondHalf)
        let lastTime = try #require(try GPSDFixtures.expectedFixes("mt3339.log.chk").last?.when)
        try waitUntil("fixes after the restart") {
            client.poll(at: tick) { fixes.append($0) }
            return fixes.count > before + 3
        }
        client.finish { fixes.append($0) }
        #expect(client.health.disconnects == 1)
        #expect(client.statistics.connections == 2)
        #expect(fixes.last?.when == lastTime)
        // When strictly increases across the restart.
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.when < $1.when })
    }

    @Test func gpsdAbsentAtStartThenAppearing() throws {
        let daemon = try GPSDDaemon()
        let client = GPSDClient(address: daemon.address, log: Logger(label: "test"))
        client.start()
        try waitUntil("a few failed attempts") { client.statistics.failedAttempts >= 2 }
        #expect(!client.isConnected)
        try daemon.start()
        defer { daemon.stop() }
        try waitUntil("the client to connect once gpsd is up") { client.statistics.watching }
        try daemon.send(try GPSDFixtures.sentences("mt3339.log"))
        try waitUntil("the TPV reports") { client.statistics.tpvReports >= 32 }
        var fixes: [LocationFix] = []
        client.finish { fixes.append($0) }
        #expect(fixes == (try GPSDFixtures.expectedFixes("mt3339.log.chk")))
        #expect(client.health.disconnects == 0)
    }
}
