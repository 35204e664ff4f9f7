import Foundation
import Testing
@testable import MotionApp
import MotionCore

/// How options, config file and board file resolve into one setup.
@Suite struct RecordingSetupTests {
    /// A boards folder holding one board without a GPS section.
    static func boardsFolder(imu: String) throws -> String {
        let dir = Binary.temporaryDirectory()
        try "name: nogps\nimu:\n\(imu)\n".write(toFile: dir + "/nogps.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    static func setup(_ boards: String, _ extra: [String]) throws -> RecordingSetup {
        try RecordingSetup.resolve(RecordingOptions.parse(["--board", "nogps", "--boards-dir", boards,
                                                           "--config", DaemonTestSupport.emptyConfig()] + extra))
    }

    @Test("--gpsd gives a board without gps: a GPS source, for record and for the daemon's LED")
    func gpsdOptionCountsAsGPS() throws {
        let boards = try Self.boardsFolder(imu: "  model: mpu9250")
        let without = try Self.setup(boards, [])
        #expect(!without.hasGPS && without.gpsdAddress == nil)
        let with = try Self.setup(boards, ["--gpsd", "localhost"])
        #expect(with.hasGPS && with.gpsdAddress == GPSDAddress(host: "localhost", port: 2947))
        #expect(!(try Self.setup(boards, ["--gpsd", "localhost", "--sources", "AGM"])).hasGPS)
        let launcher = SetupLauncher(setup: with, freeSpace: nil, log: .init(label: "test"))
        #expect(launcher.hasGPS)
    }

    @Test func aMirroredMountIsRefusedWhenTheBoardIsRead() throws {
        let boards = try Self.boardsFolder(imu: "  model: mpu9250\n  mount: [\"+x\", \"+y\", \"-z\"]")
        do {
            _ = try Self.setup(boards, [])
            Issue.record("a mirrored mount was accepted")
        } catch let error as CommandFailure {
            #expect(error.message.contains("nogps.yaml:4") && error.message.contains("mirror"), "\(error)")
        }
    }

    @Test func aMalformedGPSDOptionSaysWhatIsAccepted() throws {
        let boards = try Self.boardsFolder(imu: "  model: mpu9250")
        do {
            _ = try Self.setup(boards, ["--gpsd", "host:0"])
            Issue.record("host:0 was accepted")
        } catch let error as CommandFailure {
            #expect(error.message.contains("--gpsd \"host:0\"") && error.message.contains("localhost:2947"), "\(error)")
        }
    }
}
