/// What answered at one address during `probe(bus:)`.
public struct ProbeResult: Sendable, Equatable, CustomStringConvertible {
    public var address: UInt8
    /// E.g. `MPU-9250`, `LSM9DS1 magnetometer`, `QMC5883L magnetometer`, or `unknown device`.
    public var chip: String
    /// The driver that serves it as an accelerometer/gyroscope (or whole IMU).
    public var model: IMUModel?
    /// The driver that serves it as a magnetometer chip to pair with one of the above.
    public var magnetometer: MagnetometerModel?
    /// The identity register read and its value (nil when the read failed).
    public var identityRegister: UInt8
    public var identity: UInt8?
    /// Set when the device acknowledged but could not be read.
    public var problem: String?

    public init(address: UInt8, chip: String, model: IMUModel? = nil, magnetometer: MagnetometerModel? = nil,
                identityRegister: UInt8, identity: UInt8?, problem: String? = nil) {
        self.address = address; self.chip = chip; self.model = model; self.magnetometer = magnetometer
        self.identityRegister = identityRegister; self.identity = identity; self.problem = problem
    }

    public var description: String {
        var s = "\(Hex.byte(address))  \(chip)"
        if let identity { s += "  (register \(Hex.byte(identityRegister)) = \(Hex.byte(identity)))" }
        if let model { s += "  → imu: model: \(model.rawValue), address: \(Hex.byte(address))" }
        if let magnetometer { s += "  → pairs as +\(magnetometer.rawValue), mag_address: \(Hex.byte(address))" }
        if let problem { s += "  [\(problem)]" }
        return s
    }
}

/// The addresses probed and what each identity value there means.
enum ProbeTable {
    struct Match {
        var value: UInt8
        var chip: String
        var model: IMUModel? = nil
        var magnetometer: MagnetometerModel? = nil
    }

    struct Candidate {
        var addresses: [UInt8]
        var register: UInt8
        var matches: [Match]
    }

    static let candidates: [Candidate] = [
        // InvenSense: WHO_AM_I at 117 (0x75); the ICM-20948's is at 0x00 of bank 0 (second look).
        Candidate(addresses: [0x68, 0x69], register: MPU9250Register.whoAmI, matches: [
            Match(value: 0x71, chip: "MPU-9250", model: .mpu9250), Match(value: 0x73, chip: "MPU-9255", model: .mpu9250),
            Match(value: 0x70, chip: "MPU-6500 (not supported)"),
            Match(value: MPU6050Register.identity, chip: "MPU-6050 (accelerometer/gyroscope)", model: .mpu6050),
            Match(value: ICM42688Register.identity, chip: "ICM-42688-P (accelerometer/gyroscope)", model: .icm42688),
        ]),
        // ST: WHO_AM_I at 0x0F.
        Candidate(addresses: [0x6A, 0x6B], register: LSM9DS1Register.whoAmI, matches: [
            Match(value: LSM9DS1Register.identity, chip: "LSM9DS1 accelerometer/gyroscope", model: .lsm9ds1),
            Match(value: LSM6DSOXRegister.identityLSM6DSOX, chip: "LSM6DSOX (accelerometer/gyroscope)", model: .lsm6dsox),
            Match(value: LSM6DSOXRegister.identityLSM6DS3TRC, chip: "LSM6DS3TR-C (accelerometer/gyroscope)", model: .lsm6dsox),
            Match(value: LSM6DSOXRegister.identityISM330DHCX, chip: "ISM330DHCX (accelerometer/gyroscope)", model: .lsm6dsox),
            Match(value: 0x69, chip: "LSM6DS3 (not supported)"),
        ]),
        // The LSM9DS1's magnetometer and the LIS3MDL share WHO_AM_I 0x3D (told apart below);
        // an HMC5883L at 0x1E is recognised by its "H43" (second look).
        Candidate(addresses: [0x1C, 0x1E], register: LIS3MDLRegister.whoAmI, matches: [
            Match(value: LIS3MDLRegister.identity, chip: "LIS3MDL magnetometer", magnetometer: .lis3mdl),
        ]),
        Candidate(addresses: [QMC5883LRegister.address], register: QMC5883LRegister.chipID, matches: [
            Match(value: QMC5883LRegister.identity, chip: "QMC5883L magnetometer", magnetometer: .qmc5883l),
        ]),
        Candidate(addresses: BNO055Register.addresses, register: BNO055Register.chipID, matches: [
            Match(value: BNO055Register.identity, chip: "BNO055", model: .bno055),
        ]),
        // Visible only while an MPU-9250 / ICM-20948 has its bypass enabled.
        Candidate(addresses: [0x0C], register: AK09916Register.wia2, matches: [
            Match(value: AK09916Register.identity, chip: "AK09916 magnetometer (of an ICM-20948)"),
        ]),
    ]
}

/// Lists the known chips answering on `bus` at their usual addresses, with their identity.
/// Reads only (never writes), so it is safe on a bus with other devices, unless
/// `openingBypass`: then an MPU-6050/MPU-9250 found gets its auxiliary-bus bypass switched
/// on (INT_PIN_CFG), so a magnetometer wired behind it (a GY-87) answers too. An address
/// that does not acknowledge is simply absent from the result.
public func probe(bus: I2CBus, openingBypass: Bool = false) -> [ProbeResult] {
    var results = probeOnce(bus: bus)
    if openingBypass {
        let hosts = results.filter { $0.model == .mpu6050 || $0.model == .mpu9250 }
        for host in hosts {
            try? bus.writeByte(address: host.address, register: MPU6050Register.intPinCfg, MPU6050Register.bypassEnable)
        }
        if !hosts.isEmpty { results = probeOnce(bus: bus) }
    }
    // 0x3D at 0x1C/0x1E is the LSM9DS1's own magnetometer when its accelerometer/gyroscope is there.
    if results.contains(where: { $0.model == .lsm9ds1 }) {
        for i in results.indices where results[i].magnetometer == .lis3mdl {
            results[i].chip = "LSM9DS1 magnetometer"
            results[i].magnetometer = nil
        }
    }
    return results.sorted { $0.address < $1.address }
}

private func probeOnce(bus: I2CBus) -> [ProbeResult] {
    var results: [ProbeResult] = []
    for candidate in ProbeTable.candidates {
        for address in candidate.addresses {
            let value: UInt8
            do { value = try bus.readByte(address: address, register: candidate.register) } catch {
                if error.kind != .noAcknowledge {
                    results.append(ProbeResult(address: address, chip: "device not readable",
                                               identityRegister: candidate.register, identity: nil,
                                               problem: error.description))
                }
                continue
            }
            if let match = candidate.matches.first(where: { $0.value == value }) {
                results.append(ProbeResult(address: address, chip: match.chip, model: match.model,
                                           magnetometer: match.magnetometer,
                                           identityRegister: candidate.register, identity: value))
                continue
            }
            results.append(identifyOther(bus: bus, address: address, register: candidate.register, value: value))
        }
    }
    return results
}

/// A second look at an address whose first identity register was not recognised.
private func identifyOther(bus: I2CBus, address: UInt8, register: UInt8, value: UInt8) -> ProbeResult {
    if address == 0x68 || address == 0x69,
       let id = try? bus.readByte(address: address, register: ICM20948Register.whoAmI), id == ICM20948Register.identity {
        return ProbeResult(address: address, chip: "ICM-20948", model: .icm20948,
                           identityRegister: ICM20948Register.whoAmI, identity: id)
    }
    if address == AK8963Register.address,
       let id = try? bus.readByte(address: address, register: AK8963Register.wia), id == AK8963Register.identity {
        return ProbeResult(address: address, chip: "AK8963 magnetometer (of an MPU-9250)",
                           identityRegister: AK8963Register.wia, identity: id)
    }
    if address == HMC5883LRegister.address,
       let id = try? bus.readBytes(address: address, register: HMC5883LRegister.identityA, count: 3), id == HMC5883LRegister.identity {
        return ProbeResult(address: address, chip: "HMC5883L magnetometer", magnetometer: .hmc5883l,
                           identityRegister: HMC5883LRegister.identityA, identity: id[0])
    }
    return ProbeResult(address: address, chip: "unknown device", identityRegister: register, identity: value)
}

/// The IMU `imu: model: auto` uses: the first one-chip 9-axis IMU `probe` found; else the
/// first accelerometer/gyroscope chip, paired with the first magnetometer chip found.
public struct DetectedIMU: Sendable, Equatable {
    public var selection: IMUSelection
    public var address: UInt8
    /// The LSM9DS1's magnetometer, or the paired magnetometer chip.
    public var magAddress: UInt8?
    public var model: IMUModel { selection.model }

    public init(probeModel model: IMUModel, address: UInt8, magAddress: UInt8? = nil) {
        self.init(selection: IMUSelection(model), address: address, magAddress: magAddress)
    }

    public init(selection: IMUSelection, address: UInt8, magAddress: UInt8? = nil) {
        self.selection = selection; self.address = address; self.magAddress = magAddress
    }

    /// Nil when nothing supported answered.
    public init?(_ results: [ProbeResult]) {
        let chips = results.filter { $0.model != nil }
        guard let first = chips.first(where: { $0.model?.hasMagnetometer == true }) ?? chips.first,
              let model = first.model else { return nil }
        address = first.address
        if model.hasMagnetometer {
            selection = IMUSelection(model)
            magAddress = model == .lsm9ds1 ? results.first { $0.chip == "LSM9DS1 magnetometer" }?.address : nil
        } else {
            let mag = results.first { $0.magnetometer != nil }
            selection = IMUSelection(model, mag?.magnetometer)
            magAddress = mag?.address
        }
    }
}
