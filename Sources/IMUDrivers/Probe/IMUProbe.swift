/// What answered at one address during `probe(bus:)`.
public struct ProbeResult: Sendable, Equatable, CustomStringConvertible {
    public var address: UInt8
    /// E.g. `MPU-9250`, `LSM9DS1 magnetometer`, or `unknown device`.
    public var chip: String
    /// The driver that serves it, when it is an IMU motionlog drives (not for magnetometer halves).
    public var model: IMUModel?
    /// The identity register read and its value (nil when the read failed).
    public var identityRegister: UInt8
    public var identity: UInt8?
    /// Set when the device acknowledged but could not be read.
    public var problem: String?

    public var description: String {
        var s = "\(Hex.byte(address))  \(chip)"
        if let identity { s += "  (register \(Hex.byte(identityRegister)) = \(Hex.byte(identity)))" }
        if let model { s += "  → imu: model: \(model.rawValue), address: \(Hex.byte(address))" }
        if let problem { s += "  [\(problem)]" }
        return s
    }
}

/// The addresses probed and what each identity value there means.
enum ProbeTable {
    struct Candidate {
        var addresses: [UInt8]
        var register: UInt8
        var matches: [(value: UInt8, chip: String, model: IMUModel?)]
    }

    static let candidates: [Candidate] = [
        // MPU-9250 family: WHO_AM_I (register 117); ICM-20948: WHO_AM_I at 0x00 of bank 0.
        Candidate(addresses: [0x68, 0x69], register: MPU9250Register.whoAmI, matches: [
            (0x71, "MPU-9250", .mpu9250), (0x73, "MPU-9255", .mpu9250),
            (0x70, "MPU-6500 (no magnetometer: not supported)", nil), (0x68, "MPU-6050 (no magnetometer: not supported)", nil),
        ]),
        Candidate(addresses: [0x6A, 0x6B], register: LSM9DS1Register.whoAmI, matches: [
            (LSM9DS1Register.identity, "LSM9DS1 accelerometer/gyroscope", .lsm9ds1),
        ]),
        Candidate(addresses: [0x1C, 0x1E], register: LSM9DS1MagRegister.whoAmI, matches: [
            (LSM9DS1MagRegister.identity, "LSM9DS1 magnetometer", nil),
        ]),
        // Visible only while an MPU-9250 / ICM-20948 has its bypass enabled.
        Candidate(addresses: [0x0C], register: AK09916Register.wia2, matches: [
            (AK09916Register.identity, "AK09916 magnetometer (of an ICM-20948)", nil),
        ]),
    ]
}

/// Lists the known chips answering on `bus` at their usual addresses, with their identity.
/// Reads only (never writes), so it is safe on a bus with other devices. An address that
/// does not acknowledge is simply absent from the result.
public func probe(bus: I2CBus) -> [ProbeResult] {
    var results: [ProbeResult] = []
    for candidate in ProbeTable.candidates {
        for address in candidate.addresses {
            let value: UInt8
            do { value = try bus.readByte(address: address, register: candidate.register) } catch {
                if error.kind != .noAcknowledge {
                    results.append(ProbeResult(address: address, chip: "device not readable", model: nil,
                                               identityRegister: candidate.register, identity: nil,
                                               problem: error.description))
                }
                continue
            }
            if let match = candidate.matches.first(where: { $0.value == value }) {
                results.append(ProbeResult(address: address, chip: match.chip, model: match.model,
                                           identityRegister: candidate.register, identity: value))
                continue
            }
            results.append(identifyOther(bus: bus, address: address, register: candidate.register, value: value))
        }
    }
    return results.sorted { $0.address < $1.address }
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
        return ProbeResult(address: address, chip: "AK8963 magnetometer (of an MPU-9250)", model: nil,
                           identityRegister: AK8963Register.wia, identity: id)
    }
    return ProbeResult(address: address, chip: "unknown device", model: nil, identityRegister: register, identity: value)
}

/// The IMU `imu: model: auto` uses: the first supported chip `probe` found, with the
/// LSM9DS1 magnetometer address when there is one.
public struct DetectedIMU: Sendable, Equatable {
    public var model: IMUModel
    public var address: UInt8
    public var magAddress: UInt8?

    public init(probeModel model: IMUModel, address: UInt8, magAddress: UInt8? = nil) {
        self.model = model; self.address = address; self.magAddress = magAddress
    }

    /// Nil when nothing supported answered.
    public init?(_ results: [ProbeResult]) {
        guard let first = results.first(where: { $0.model != nil }), let model = first.model else { return nil }
        self.model = model
        self.address = first.address
        self.magAddress = model == .lsm9ds1 ? results.first { $0.chip == "LSM9DS1 magnetometer" }?.address : nil
    }
}
