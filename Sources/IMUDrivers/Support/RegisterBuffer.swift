/// A preallocated byte buffer for burst reads, so the per-tick path never allocates.
/// Also decodes the 16-bit two's-complement words chips deliver, in either byte order.
final class RegisterBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = .allocate(byteCount: capacity, alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { bytes.deallocate() }

    /// The first `count` bytes, for a read of that length.
    func prefix(_ count: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count])
    }

    subscript(i: Int) -> UInt8 { bytes[i] }

    /// Signed word with the high byte first (InvenSense accel/gyro).
    func bigEndianInt16(at i: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
    }

    /// Signed word with the low byte first (AKM magnetometers, ST sensors).
    func littleEndianInt16(at i: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
    }

    /// Three signed words X, Y, Z from `i` on, each high byte first.
    func bigEndianVector(at i: Int) -> (Int16, Int16, Int16) {
        (bigEndianInt16(at: i), bigEndianInt16(at: i + 2), bigEndianInt16(at: i + 4))
    }

    /// Three signed words X, Y, Z from `i` on, each low byte first.
    func littleEndianVector(at i: Int) -> (Int16, Int16, Int16) {
        (littleEndianInt16(at: i), littleEndianInt16(at: i + 2), littleEndianInt16(at: i + 4))
    }
}
