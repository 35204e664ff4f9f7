import IMUDrivers
import MotionConfig
import Testing

/// Board files naming an accelerometer/gyroscope chip plus a magnetometer chip.
@Suite struct CompositeBoardTests {
    @Test func aPairWithItsMagnetometerAddressAndMount() throws {
        let b = try BoardDefinition.parse(text: """
            name: gy
            imu:
              model: lsm6dsox+lis3mdl
              address: 0x6B
              mag_address: 0x1E
              mount: ["+x", "+y", "+z"]
              mag_mount: ["-y", "+x", "+z"]
            """, file: "b.yaml")
        #expect(b.imu.model == .chip(IMUSelection(.lsm6dsox, .lis3mdl)) && b.imu.address == 0x6B && b.imu.magAddress == 0x1E)
        #expect(b.imu.magMount?.axes == ["-y", "+x", "+z"])
    }

    @Test("unknown or impossible pairs and bad magnetometer mounts name their line", arguments: [
        ("model: mpu6050+hmc5883", 3, "imu.model", "hmc5883l"),
        ("model: mpu9250+qmc5883l", 3, "imu.model", "mpu9250+qmc5883l"),
        ("model: mpu6050\n  mag_mount: [\"+x\", \"+x\", \"+z\"]", 4, "imu.mag_mount", "exactly once"),
    ])
    func rejected(imu: String, line: Int, key: String, mentions: String) {
        do {
            _ = try BoardDefinition.parse(text: "name: gy\nimu:\n  \(imu)\n", file: "b.yaml")
            Issue.record("accepted \(imu)")
        } catch {
            #expect(error.line == line && error.key == key && error.message.contains(mentions), "\(error)")
        }
    }
}
