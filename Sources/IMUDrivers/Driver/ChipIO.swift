/// Register access to one device for bring-up code: writes that are read back, identity
/// checks over candidate addresses, bus errors wrapped as `IMUError`.
struct ChipIO {
    let bus: I2CBus
    let chip: String
    /// Counts every failed transfer, so the driver's `busErrors` includes bring-up's.
    let failures: FailureCounter

    /// Finds the device among `candidates`: the first address that acknowledges must hold an
    /// identity in `expected`. A transient failure is retried once per address. `select`
    /// is written first at each address (a register bank or page select, e.g. bank 0).
    func locate(candidates: [UInt8], identityRegister: UInt8, expected: [UInt8],
                select: (register: UInt8, value: UInt8)? = nil) throws(IMUError) -> UInt8 {
        var lastError = I2CError(kind: .noAcknowledge, bus: bus.name, operation: .read(count: 1),
                                 address: candidates.first, register: identityRegister)
        // A NACK at a candidate that is not there is discovery, not a bus error; it counts
        // only when no candidate answers.
        var nacks = 0
        for address in candidates {
            var value: UInt8?
            for _ in 0..<2 where value == nil {
                do {
                    if let select { try bus.writeByte(address: address, register: select.register, select.value) }
                    value = try bus.readByte(address: address, register: identityRegister)
                } catch {
                    lastError = error
                    if error.kind == .noAcknowledge {
                        nacks += 1
                        break
                    }
                    failures.count += 1
                }
            }
            guard let found = value else { continue }
            guard expected.contains(found) else {
                throw .wrongIdentity(chip: chip, bus: bus.name, address: address, register: identityRegister,
                                     expected: expected, found: found)
            }
            return address
        }
        failures.count += nacks
        throw .notFound(chip: chip, bus: bus.name, addresses: candidates, lastError: lastError)
    }

    func write(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws(IMUError) {
        do { try bus.writeByte(address: address, register: register, value) } catch {
            failures.count += 1
            throw .bus(error)
        }
    }

    /// Writes, then reads back; a register that does not keep the value is an error.
    func writeVerified(_ address: UInt8, _ register: UInt8, _ value: UInt8, readRegister: UInt8? = nil) throws(IMUError) {
        try write(address, register, value)
        let back = try read(address, readRegister ?? register)
        guard back == value else {
            throw .configurationRejected(chip: chip, bus: bus.name, address: address, register: register,
                                         wrote: value, readBack: back)
        }
    }

    func read(_ address: UInt8, _ register: UInt8) throws(IMUError) -> UInt8 {
        do { return try bus.readByte(address: address, register: register) } catch {
            failures.count += 1
            throw .bus(error)
        }
    }

    func read(_ address: UInt8, _ register: UInt8, count: Int) throws(IMUError) -> [UInt8] {
        do { return try bus.readBytes(address: address, register: register, count: count) } catch {
            failures.count += 1
            throw .bus(error)
        }
    }
}

/// Failed transfers during bring-up, shared by a chip's `ChipIO`s and collected by the driver.
final class FailureCounter {
    var count = 0

    /// Returns the count so far and starts again from zero.
    func take() -> Int {
        defer { count = 0 }
        return count
    }
}
