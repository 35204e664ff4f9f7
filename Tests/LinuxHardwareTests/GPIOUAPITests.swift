@testable import LinuxHardware
import Testing

/// The computed ioctl numbers and struct layouts against the values `<linux/gpio.h>`
/// produces (numbers written out here by hand from the header, not from the code).
@Suite("GPIO uAPI v2 numbers and layouts")
struct GPIOUAPITests {
    @Test func ioctlNumbersMatchTheKernelHeader() {
        #expect(GPIOUAPI.getLine == 0xC250_B407)        // _IOWR(0xB4, 0x07, 592 bytes)
        #expect(GPIOUAPI.setValues == 0xC010_B40F)      // _IOWR(0xB4, 0x0F, 16 bytes)
        #expect(GPIOUAPI.getValues == 0xC010_B40E)
        #expect(GPIOUAPI.setConfig == 0xC110_B40D)      // _IOWR(0xB4, 0x0D, 272 bytes)
        #expect(GPIOUAPI.getLineInfo == 0xC100_B405)    // _IOWR(0xB4, 0x05, 256 bytes)
        #expect(GPIOUAPI.getChipInfo == 0x8044_B401)    // _IOR(0xB4, 0x01, 68 bytes)
    }

    @Test func structSizesMatchTheKernelHeader() {
        #expect(GPIOUAPI.lineRequestSize == 592)
        #expect(GPIOUAPI.lineConfigSize == 272)
        #expect(GPIOUAPI.lineInfoSize == 256)
        #expect(GPIOUAPI.lineEventSize == 48)
        #expect(GPIOUAPI.lineValuesSize == 16)
        #expect(GPIOUAPI.chipInfoSize == 68)
    }

    @Test func buttonRequestIsLaidOutLikeTheCStruct() {
        let config = GPIOLineConfig(line: 17, direction: .input(bias: .pullUp, debounceMicroseconds: 30_000), activeLow: true)
        let r = config.requestBytes()
        #expect(r.count == 592)
        #expect(r.uint32(at: 0) == 17)                                  // offsets[0]
        #expect(r.string(at: 256, capacity: 32) == "motionlog")         // consumer
        // config.flags: ACTIVE_LOW(1<<1) | INPUT(1<<2) | EDGE_RISING(1<<4) | EDGE_FALLING(1<<5) | PULL_UP(1<<8)
        #expect(r.uint64(at: 288) == 2 + 4 + 16 + 32 + 256)
        #expect(r.uint32(at: 296) == 1)                                 // config.num_attrs
        #expect(r.uint32(at: 320) == 3)                                 // attrs[0].attr.id = DEBOUNCE
        #expect(r.uint32(at: 328) == 30_000)                            // debounce_period_us
        #expect(r.uint64(at: 336) == 1)                                 // attrs[0].mask: line 0
        #expect(r.uint32(at: 560) == 1)                                 // num_lines
        #expect(r.uint32(at: 564) == 0)                                 // event_buffer_size: kernel default
        #expect(r.int32(at: 588) == 0)                                  // fd (filled by the kernel)
        // Padding must be zero or the kernel rejects the request.
        #expect(r.bytes[300..<320].allSatisfy { $0 == 0 })
        #expect(r.bytes[568..<588].allSatisfy { $0 == 0 })
    }

    @Test func buttonWithoutDebounceHasNoAttribute() {
        let config = GPIOLineConfig(line: 5, direction: .input(bias: .pullDown, debounceMicroseconds: 0), activeLow: false)
        let r = config.requestBytes()
        #expect(r.uint64(at: 288) == 4 + 16 + 32 + 512)                 // INPUT | both edges | PULL_DOWN
        #expect(r.uint32(at: 296) == 0)
        #expect(r.bytes[320..<560].allSatisfy { $0 == 0 })
    }

    @Test func ledRequestIsAnOutputStartingOff() {
        let config = GPIOLineConfig(line: 27, direction: .output(initiallyActive: false), activeLow: false)
        let r = config.requestBytes()
        #expect(r.uint64(at: 288) == 8)                                 // OUTPUT(1<<3)
        #expect(r.uint32(at: 296) == 1)
        #expect(r.uint32(at: 320) == 2)                                 // OUTPUT_VALUES
        #expect(r.uint64(at: 328) == 0)                                 // off
        #expect(r.uint64(at: 336) == 1)
        let on = GPIOLineConfig(line: 27, direction: .output(initiallyActive: true), activeLow: true, consumer: "x")
        #expect(on.requestBytes().uint64(at: 328) == 1)
        #expect(on.requestBytes().uint64(at: 288) == 8 + 2)
    }

    @Test func biasNoneDisablesTheInternalResistor() {
        let config = GPIOLineConfig(line: 1, direction: .input(bias: .disabled, debounceMicroseconds: 0), activeLow: false)
        #expect(config.requestBytes().uint64(at: 288) == 4 + 16 + 32 + 1024)
    }

    @Test func longConsumerNamesAreCutToFitWithTheirTerminator() {
        let config = GPIOLineConfig(line: 1, direction: .output(initiallyActive: false), activeLow: false,
                                    consumer: String(repeating: "c", count: 40))
        let r = config.requestBytes()
        #expect(r.string(at: 256, capacity: 32) == String(repeating: "c", count: 31))
        #expect(r.bytes[287] == 0)
    }

    @Test func edgeEventsDecodeFromTheirBytes() {
        var raw = StructBytes(size: 96)
        raw.set(UInt64(1_234_567_890_123), at: 0)       // timestamp_ns
        raw.set(UInt32(1), at: 8)                       // RISING_EDGE
        raw.set(UInt32(17), at: 12)                     // offset
        raw.set(UInt32(4), at: 16)                      // seqno
        raw.set(UInt64(1_234_600_000_000), at: 48)
        raw.set(UInt32(2), at: 56)                      // FALLING_EDGE
        raw.set(UInt32(17), at: 60)
        raw.set(UInt32(5), at: 64)
        #expect(GPIOEdgeEvent.decode(raw, at: 0) == GPIOEdgeEvent(timestampNanos: 1_234_567_890_123, becameActive: true, line: 17, sequence: 4))
        #expect(GPIOEdgeEvent.decode(raw, at: 48) == GPIOEdgeEvent(timestampNanos: 1_234_600_000_000, becameActive: false, line: 17, sequence: 5))
        var unknown = StructBytes(size: 48)
        unknown.set(UInt32(9), at: 8)
        #expect(GPIOEdgeEvent.decode(unknown) == nil)
    }
}
