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
            Reads the identity register at the usual addresses of the MPU-9250, MPU-6050, ICM-20948 and \
            ICM-42688-P (0x68/0x69), LSM9DS1, LSM6DSOX, LSM6DS3TR-C and ISM330DHCX (0x6A/0x6B), BNO055 \
            (0x28/0x29), the LIS3MDL and LSM9DS1 magnetometer (0x1C/0x1E), HMC5883L (0x1E), QMC5883L (0x0D) \
            and the AKM magnetometers (0x0C). Reads only, never writes, unless --open-bypass: then an \
            MPU-6050/MPU-9250 found gets its auxiliary-bus bypass switched on, so a magnetometer wired \
            behind it (GY-87) answers too (`imu: model: auto` does the same). \
            Exit status: 0 when a supported IMU answered, 1 when none did, 2 when the bus cannot be opened.
            """)

    @Option(name: .long, help: "I2C bus: a number (1 means /dev/i2c-1) or a device path.")
    var bus: String = "1"

    @Option(name: .long, help: ArgumentHelp("Probe a simulated bus holding this IMU instead of hardware (as --imu names it; a magnetometer paired with an MPU-6050 sits behind its auxiliary bus, as on a GY-87).",
                                            valueName: "chip[+magnetometer]"))
    var simulated: String?

    @Flag(name: .customLong("open-bypass"), help: "Switch on the auxiliary-bus bypass of an MPU-6050/MPU-9250 found, then look again (writes INT_PIN_CFG).")
    var openBypass = false

    func run() throws {
        let i2c: I2CBus
        if let simulated {
            let model: IMUSelection
            do { model = try IMUSelection(parsing: simulated) } catch { throw CommandFailure.usage("--simulated \(error)") }
            i2c = SimulatedChipIMU(selection: model, truth: { _ in .faceUpAtRest }).bus
        } else {
            guard let path = LinuxI2CBus.path(forArgument: bus) else {
                throw CommandFailure.usage("--bus \"\(bus)\": give a bus number such as 1 or a device path such as /dev/i2c-1")
            }
            do { i2c = try LinuxI2CBus(path: path) } catch { throw CommandFailure("\(error)", code: 2) }
        }
        let results = probe(bus: i2c, openingBypass: openBypass)
        guard !results.isEmpty else {
            Console.out("No known chip answered on \(i2c.name) (tried 0x0C, 0x0D, 0x1C, 0x1E, 0x28, 0x29, 0x68, 0x69, 0x6A, 0x6B).")
            throw CommandFailure("", code: 1)
        }
        Console.out("Chips answering on \(i2c.name):")
        for r in results { Console.out("  \(r)") }
        guard let detected = DetectedIMU(results) else {
            Console.out("No supported IMU among them (see docs/IMU.md for the chips motionlog drives).")
            throw CommandFailure("", code: 1)
        }
        // The recorder's `auto` opens an MPU-6050's bypass before it looks (SensorFactory):
        // without --open-bypass this probe cannot say what auto finds behind it (it said
        // "auto uses the MPU-6050 (imu: model: mpu6050)" of a GY-87).
        if detected.model == .mpu6050 && detected.selection.magnetometer == nil && !openBypass {
            Console.out("`imu: model: auto` uses the MPU-6050 at \(Hex.byte(detected.address)), with the magnetometer behind it if one answers once its bypass is open (the recorder opens it; this probe did not).")
            Console.out("No magnetometer seen: one wired behind the MPU-6050 (GY-87) answers only with --open-bypass; run probe --open-bypass to see what auto will use.")
            return
        }
        var uses = "`imu: model: auto` uses the \(detected.selection.displayName) at \(Hex.byte(detected.address))"
        if detected.selection.magnetometer != nil, let m = detected.magAddress { uses += " with its magnetometer at \(Hex.byte(m))" }
        Console.out(uses + " (imu: model: \(detected.selection)).")
    }
}
