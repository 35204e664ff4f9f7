/// Where a chip is on its bus: the candidate addresses (the configured one, else the
/// datasheet's list), narrowed to the one that answered once bring-up has found it, so a
/// re-initialisation goes straight back to it.
struct ChipAddress {
    private(set) var candidates: [UInt8]
    /// The address transfers go to: the first candidate until `locate` finds the chip.
    private(set) var current: UInt8

    /// `defaults` is a chip's datasheet list of addresses and is never empty.
    init(configured: UInt8?, defaults: [UInt8]) {
        candidates = configured.map { [$0] } ?? defaults
        current = candidates[0]
    }

    /// Finds the chip among the candidates by its identity (see `ChipIO.locate`) and keeps
    /// only the address that answered.
    @discardableResult
    mutating func locate(with io: ChipIO, identityRegister: UInt8, expected: [UInt8],
                         select: (register: UInt8, value: UInt8)? = nil) throws(IMUError) -> UInt8 {
        current = try io.locate(candidates: candidates, identityRegister: identityRegister, expected: expected,
                                select: select)
        candidates = [current]
        return current
    }
}
