import ArgumentParser
import IMUDrivers
import LinuxHardware
import MotionSimulator

/// `motionlog probe`: lists the known IMU chips answering on an I2C bus, with identity.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "List the known IMU chips answering on an I2C bus.",
        discussion: """
            Reads the identity register at the usual addresses of the MPU-9250 (0x68/0x69), \
            ICM-20948 (0x68/0x69), LSM9DS1 (0x6A/0x6B, magnetometer 0x1C/0x1E) and the AKM \
            magnetometers (0x0C, visible while a host chip's bypass is on). Reads only, never writes. \
            Exit status: 0 when a supported IMU answered, 1 when none did, 2 when the bus cannot be opened.
            """)

    @Option(name: .long, help: "I2C bus: a number (1 means /dev/i2c-1) or a device path.")
    var bus: String = "1"

    @Option(name: .long, help: ArgumentHelp("Probe a simulated bus holding this chip instead of hardware.",
                                            valueName: "mpu9250|icm20948|lsm9ds1"))
    var simulated: String?

    func run() throws {
        let i2c: I2CBus
        if let simulated {
            guard let model = IMUModel(rawValue: simulated) else {
                throw CommandFailure.usage("--simulated \"\(simulated)\": use mpu9250, icm20948 or lsm9ds1")
            }
            i2c = SimulatedChipIMU(model: model, truth: { _ in .faceUpAtRest }).bus
        } else {
            guard let path = LinuxI2CBus.path(forArgument: bus) else {
                throw CommandFailure.usage("--bus \"\(bus)\": give a bus number such as 1 or a device path such as /dev/i2c-1")
            }
            do { i2c = try LinuxI2CBus(path: path) } catch { throw CommandFailure("\(error)", code: 2) }
        }
        let results = probe(bus: i2c)
        guard !results.isEmpty else {
            Console.out("No known chip answered on \(i2c.name) (tried 0x0C, 0x1C, 0x1E, 0x68, 0x69, 0x6A, 0x6B).")
            throw CommandFailure("", code: 1)
        }
        Console.out("Chips answering on \(i2c.name):")
        for r in results { Console.out("  \(r)") }
        guard let detected = DetectedIMU(results) else {
            Console.out("No supported IMU among them (motionlog drives the MPU-9250, ICM-20948 and LSM9DS1).")
            throw CommandFailure("", code: 1)
        }
        Console.out("`imu: model: auto` uses the \(detected.model.displayName) at \(Hex.byte(detected.address)).")
    }
}
