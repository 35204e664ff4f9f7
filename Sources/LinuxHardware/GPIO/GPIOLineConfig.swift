/// Internal pull resistor of an input line.
public enum GPIOBias: String, Sendable, Equatable, CaseIterable {
    /// Pull-up: the button connects the pin to ground (then active-low).
    case pullUp = "pull-up"
    /// Pull-down: the button connects the pin to 3.3 V.
    case pullDown = "pull-down"
    /// No internal resistor (an external one is fitted).
    case disabled = "none"
}

/// How one line is requested: an input with edge events (a button) or an output (an LED).
public struct GPIOLineConfig: Sendable, Equatable {
    public enum Direction: Sendable, Equatable {
        /// Input with both edges reported, a bias, and kernel debounce (0: none).
        case input(bias: GPIOBias, debounceMicroseconds: UInt32)
        /// Output, starting at `initiallyActive`.
        case output(initiallyActive: Bool)
    }

    public var line: UInt32
    public var direction: Direction
    /// Active means low on the pin: the kernel inverts values and edges for us, so "rising"
    /// always means "became active" (pressed, LED on).
    public var activeLow: Bool
    /// Shown as the line's consumer by `gpioinfo`.
    public var consumer: String

    public init(line: UInt32, direction: Direction, activeLow: Bool, consumer: String = "motionlog") {
        self.line = line; self.direction = direction; self.activeLow = activeLow; self.consumer = consumer
    }

    /// The `gpio_v2_line_config.flags` for this line.
    var flags: UInt64 {
        var f: UInt64 = activeLow ? GPIOUAPI.flagActiveLow : 0
        switch direction {
        case .input(let bias, _):
            f |= GPIOUAPI.flagInput | GPIOUAPI.flagEdgeRising | GPIOUAPI.flagEdgeFalling
            switch bias {
            case .pullUp: f |= GPIOUAPI.flagBiasPullUp
            case .pullDown: f |= GPIOUAPI.flagBiasPullDown
            case .disabled: f |= GPIOUAPI.flagBiasDisabled
            }
        case .output:
            f |= GPIOUAPI.flagOutput
        }
        return f
    }

    /// The `struct gpio_v2_line_request` for GPIO_V2_GET_LINE_IOCTL: one line, its flags, and
    /// one attribute (debounce period for inputs, initial value for outputs) applied to it.
    func requestBytes() -> StructBytes {
        var r = StructBytes(size: GPIOUAPI.lineRequestSize)
        r.set(line, at: GPIOUAPI.Request.offsets)
        r.set(consumer, at: GPIOUAPI.Request.consumer, capacity: GPIOUAPI.nameSize)
        let config = GPIOUAPI.Request.config
        r.set(flags, at: config + GPIOUAPI.Config.flags)
        let attribute = config + GPIOUAPI.Config.attributes
        var attributes: UInt32 = 0
        switch direction {
        case .input(_, let debounce) where debounce > 0:
            r.set(GPIOUAPI.attributeDebounce, at: attribute)
            r.set(debounce, at: attribute + 8)
            r.set(UInt64(1), at: attribute + 16)      // mask: the request's line 0
            attributes = 1
        case .output(let active):
            r.set(GPIOUAPI.attributeOutputValues, at: attribute)
            r.set(UInt64(active ? 1 : 0), at: attribute + 8)
            r.set(UInt64(1), at: attribute + 16)
            attributes = 1
        default:
            break
        }
        r.set(attributes, at: config + GPIOUAPI.Config.numAttributes)
        r.set(UInt32(1), at: GPIOUAPI.Request.numLines)
        return r
    }
}

/// One edge on an input line, as the kernel timestamped it.
public struct GPIOEdgeEvent: Sendable, Equatable {
    /// CLOCK_MONOTONIC nanoseconds (the kernel's default event clock).
    public var timestampNanos: Int64
    /// True when the line became active (pressed), false when it became inactive.
    public var becameActive: Bool
    public var line: UInt32
    /// The kernel's per-request sequence number (gaps mean the event buffer overflowed).
    public var sequence: UInt32

    public init(timestampNanos: Int64, becameActive: Bool, line: UInt32, sequence: UInt32) {
        self.timestampNanos = timestampNanos; self.becameActive = becameActive; self.line = line; self.sequence = sequence
    }

    /// Decodes one `struct gpio_v2_line_event`; nil for an unknown event id.
    static func decode(_ bytes: StructBytes, at base: Int = 0) -> GPIOEdgeEvent? {
        let id = bytes.uint32(at: base + GPIOUAPI.Event.id)
        guard id == GPIOUAPI.eventRisingEdge || id == GPIOUAPI.eventFallingEdge else { return nil }
        let ts = bytes.uint64(at: base + GPIOUAPI.Event.timestamp)
        return GPIOEdgeEvent(timestampNanos: Int64(truncatingIfNeeded: ts), becameActive: id == GPIOUAPI.eventRisingEdge,
                             line: bytes.uint32(at: base + GPIOUAPI.Event.offset),
                             sequence: bytes.uint32(at: base + GPIOUAPI.Event.sequence))
    }
}
