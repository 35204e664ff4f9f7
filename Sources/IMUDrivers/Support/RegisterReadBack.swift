extension RegisterBuffer {
    /// Reads `count` consecutive registers from `register` on in one burst and tells whether
    /// they still hold `written`, what bring-up wrote there (a reset or power cycle returns
    /// them to their defaults). False before bring-up has written all `count` of them.
    func stillHolds(_ written: [UInt8], count: Int, bus: I2CBus, address: UInt8,
                    register: UInt8) throws(I2CError) -> Bool {
        guard written.count == count, count <= bytes.count else { return false }
        try bus.read(address: address, register: register, into: prefix(count))
        for i in 0..<count where bytes[i] != written[i] { return false }
        return true
    }
}
