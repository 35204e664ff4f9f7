import MotionSystem
import SystemPackage

/// Numbers and byte layouts of the Linux GPIO character device, uAPI v2
/// (`<linux/gpio.h>`, Linux 5.10 and later: the same on Debian bookworm's 6.1 and trixie's
/// 6.12 kernels, whatever libgpiod version the distribution ships).
///
/// Swift cannot import the header's `_IOWR` macros, so the request numbers are computed here
/// from Linux's generic ioctl encoding, and the structs are written and read at the byte
/// offsets the header defines (every field is naturally aligned; the kernel checks padding is
/// zero). `GPIOUAPITests` pins the numbers to the values the C header produces.
enum GPIOUAPI {
    /// The GPIO ioctl type byte (`0xB4`).
    static let ioctlType: UInt = 0xB4
    /// `GPIO_MAX_NAME_SIZE`: chip names, labels and consumer strings.
    static let nameSize = 32
    /// `GPIO_V2_LINES_MAX`.
    static let maxLines = 64
    /// `GPIO_V2_LINE_NUM_ATTRS_MAX`.
    static let maxAttributes = 10

    // MARK: Struct sizes (bytes)

    /// `struct gpiochip_info`: name[32], label[32], u32 lines.
    static let chipInfoSize = 68
    /// `struct gpio_v2_line_attribute`: u32 id, u32 padding, u64 value (union).
    static let attributeSize = 16
    /// `struct gpio_v2_line_config_attribute`: attribute + u64 mask.
    static let configAttributeSize = 24
    /// `struct gpio_v2_line_config`: u64 flags, u32 num_attrs, u32 padding[5], attrs[10].
    static let lineConfigSize = 8 + 4 + 20 + maxAttributes * configAttributeSize
    /// `struct gpio_v2_line_request`: u32 offsets[64], consumer[32], config, u32 num_lines,
    /// u32 event_buffer_size, u32 padding[5], s32 fd.
    static let lineRequestSize = maxLines * 4 + nameSize + lineConfigSize + 4 + 4 + 20 + 4
    /// `struct gpio_v2_line_values`: u64 bits, u64 mask.
    static let lineValuesSize = 16
    /// `struct gpio_v2_line_info`: name[32], consumer[32], u32 offset, u32 num_attrs, u64 flags,
    /// attrs[10], u32 padding[4].
    static let lineInfoSize = 2 * nameSize + 4 + 4 + 8 + maxAttributes * attributeSize + 16
    /// `struct gpio_v2_line_event`: u64 timestamp_ns, u32 id, u32 offset, u32 seqno,
    /// u32 line_seqno, u32 padding[6].
    static let lineEventSize = 8 + 4 * 4 + 24

    // MARK: Request numbers

    /// `_IOC(dir, type, nr, size)` of `<asm-generic/ioctl.h>` (x86, ARM, arm64, RISC-V):
    /// direction in bits 30–31 (1 write, 2 read), size in bits 16–29, type in 8–15, number in 0–7.
    static func ioctlNumber(read: Bool, write: Bool, number: UInt, size: Int) -> UInt {
        let direction: UInt = (write ? 1 : 0) | (read ? 2 : 0)
        return (direction << 30) | (UInt(size) << 16) | (ioctlType << 8) | number
    }

    /// `GPIO_GET_CHIPINFO_IOCTL` = `_IOR(0xB4, 0x01, struct gpiochip_info)`.
    static let getChipInfo = ioctlNumber(read: true, write: false, number: 0x01, size: chipInfoSize)
    /// `GPIO_V2_GET_LINEINFO_IOCTL` = `_IOWR(0xB4, 0x05, struct gpio_v2_line_info)`.
    static let getLineInfo = ioctlNumber(read: true, write: true, number: 0x05, size: lineInfoSize)
    /// `GPIO_V2_GET_LINE_IOCTL` = `_IOWR(0xB4, 0x07, struct gpio_v2_line_request)`.
    static let getLine = ioctlNumber(read: true, write: true, number: 0x07, size: lineRequestSize)
    /// `GPIO_V2_LINE_SET_CONFIG_IOCTL` = `_IOWR(0xB4, 0x0D, struct gpio_v2_line_config)`.
    static let setConfig = ioctlNumber(read: true, write: true, number: 0x0D, size: lineConfigSize)
    /// `GPIO_V2_LINE_GET_VALUES_IOCTL` = `_IOWR(0xB4, 0x0E, struct gpio_v2_line_values)`.
    static let getValues = ioctlNumber(read: true, write: true, number: 0x0E, size: lineValuesSize)
    /// `GPIO_V2_LINE_SET_VALUES_IOCTL` = `_IOWR(0xB4, 0x0F, struct gpio_v2_line_values)`.
    static let setValues = ioctlNumber(read: true, write: true, number: 0x0F, size: lineValuesSize)

    // MARK: enum gpio_v2_line_flag

    static let flagUsed: UInt64 = 1 << 0
    static let flagActiveLow: UInt64 = 1 << 1
    static let flagInput: UInt64 = 1 << 2
    static let flagOutput: UInt64 = 1 << 3
    static let flagEdgeRising: UInt64 = 1 << 4
    static let flagEdgeFalling: UInt64 = 1 << 5
    static let flagBiasPullUp: UInt64 = 1 << 8
    static let flagBiasPullDown: UInt64 = 1 << 9
    static let flagBiasDisabled: UInt64 = 1 << 10

    // MARK: enum gpio_v2_line_attr_id

    static let attributeFlags: UInt32 = 1
    static let attributeOutputValues: UInt32 = 2
    static let attributeDebounce: UInt32 = 3

    // MARK: enum gpio_v2_line_event_id

    /// The line became active (with ACTIVE_LOW: the pin went low).
    static let eventRisingEdge: UInt32 = 1
    /// The line became inactive.
    static let eventFallingEdge: UInt32 = 2

    // MARK: Field offsets

    /// In `gpio_v2_line_request`.
    enum Request {
        static let offsets = 0
        static let consumer = maxLines * 4                       // 256
        static let config = consumer + nameSize                   // 288
        static let numLines = config + lineConfigSize             // 560
        static let eventBufferSize = numLines + 4                 // 564
        static let fd = eventBufferSize + 4 + 20                  // 588
    }

    /// In `gpio_v2_line_config` (relative to its start).
    enum Config {
        static let flags = 0
        static let numAttributes = 8
        static let attributes = 8 + 4 + 20                        // 32
    }

    /// In `gpio_v2_line_event`.
    enum Event {
        static let timestamp = 0
        static let id = 8
        static let offset = 12
        static let sequence = 16
    }

    /// In `gpio_v2_line_info`.
    enum LineInfo {
        static let name = 0
        static let consumer = nameSize
        static let offset = 2 * nameSize
        static let flags = 2 * nameSize + 8
    }
}

/// A zero-filled byte buffer laid out like a C struct, written and read at fixed offsets in
/// the machine's byte order (what the kernel expects).
struct StructBytes {
    private(set) var bytes: [UInt8]

    init(size: Int) { bytes = [UInt8](repeating: 0, count: size) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    mutating func set(_ value: UInt32, at offset: Int) {
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: UInt32.self) }
    }

    mutating func set(_ value: UInt64, at offset: Int) {
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: UInt64.self) }
    }

    /// Writes `text` as a NUL-terminated C string of at most `capacity` bytes (cut if longer).
    mutating func set(_ text: String, at offset: Int, capacity: Int) {
        let utf8 = Array(text.utf8.prefix(capacity - 1))
        for (i, b) in utf8.enumerated() { bytes[offset + i] = b }
        bytes[offset + utf8.count] = 0
    }

    func uint32(at offset: Int) -> UInt32 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }

    func int32(at offset: Int) -> Int32 { Int32(bitPattern: uint32(at: offset)) }

    func uint64(at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    }

    /// A NUL-terminated C string of at most `capacity` bytes.
    func string(at offset: Int, capacity: Int) -> String {
        let field = bytes[offset..<(offset + capacity)]
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[offset..<end], as: UTF8.self)
    }

    /// Passes the struct to `ioctl(request)` on `device`, which may fill it in.
    mutating func control(_ device: DeviceFile, _ request: UInt) throws(Errno) {
        try bytes.withMutableBytes { (buffer) throws(Errno) in
            guard let base = buffer.baseAddress else { throw Errno.badAddress }
            _ = try device.control(request, base)
        }
    }

    /// Reads from `device` into the struct (a run of events); the bytes read, 0 when none wait.
    mutating func read(_ device: DeviceFile) throws(Errno) -> Int {
        try bytes.withMutableBytes { (buffer) throws(Errno) -> Int in try device.read(into: buffer) }
    }
}
