/// One device as a chip driver reaches it: its bus, where it is on it (`ChipAddress`), and
/// register access at that address, for bring-up through `ChipIO` (failures counted,
/// wrapped as `IMUError`) and for the per-tick path as plain `I2CError`s into a
/// preallocated `RegisterBuffer`.
struct ChipLink {
    let bus: I2CBus
    let io: ChipIO
    private var place: ChipAddress
    /// The address transfers go to (see `ChipAddress.current`).
    var address: UInt8 { place.current }

    /// `chip` names the device in errors, e.g. `LSM9DS1 magnetometer`; `defaults` are the
    /// datasheet's addresses, tried in order when none is configured.
    init(bus: I2CBus, chip: String, failures: FailureCounter, configured: UInt8?, defaults: [UInt8]) {
        self.bus = bus
        io = ChipIO(bus: bus, chip: chip, failures: failures)
        place = ChipAddress(configured: configured, defaults: defaults)
    }

    /// Finds the device by its identity and keeps the address that answered (`ChipIO.locate`).
    mutating func locate(identityRegister: UInt8, expected: [UInt8],
                         select: (register: UInt8, value: UInt8)? = nil) throws(IMUError) {
        try place.locate(with: io, identityRegister: identityRegister, expected: expected, select: select)
    }

    func write(_ register: UInt8, _ value: UInt8) throws(IMUError) {
        try io.write(address, register, value)
    }

    /// Writes, then reads back; a register that does not keep the value is an error.
    func writeVerified(_ register: UInt8, _ value: UInt8) throws(IMUError) {
        try io.writeVerified(address, register, value)
    }

    func read(_ register: UInt8) throws(IMUError) -> UInt8 {
        try io.read(address, register)
    }

    func read(_ register: UInt8, count: Int) throws(IMUError) -> [UInt8] {
        try io.read(address, register, count: count)
    }

    /// Per tick: one burst of `count` bytes from `register` into `buffer`, from its byte `offset` on.
    func burst(_ register: UInt8, count: Int, into buffer: RegisterBuffer, at offset: Int = 0) throws(I2CError) {
        try bus.read(address: address, register: register,
                     into: UnsafeMutableRawBufferPointer(rebasing: buffer.bytes[offset..<offset + count]))
    }

    /// Per tick: one register.
    func byte(_ register: UInt8) throws(I2CError) -> UInt8 {
        try bus.readByte(address: address, register: register)
    }

    /// Per tick: whether `count` registers from `register` on still hold what bring-up
    /// wrote (`RegisterBuffer.stillHolds`).
    func stillHolds(_ written: [UInt8], count: Int, from register: UInt8, buffer: RegisterBuffer) throws(I2CError) -> Bool {
        try buffer.stillHolds(written, count: count, bus: bus, address: address, register: register)
    }
}
