import IMUDrivers
import MotionCore

/// A board file from `boards/`: which IMU sits where, GPS, GPIO lines, output folder.
public struct BoardDefinition: Sendable, Equatable {
    /// IMU placement on the board.
    public struct IMU: Sendable, Equatable {
        /// `mpu9250`, `mpu6050+qmc5883l`, … (an `IMUSelection`), `auto` (probe the bus) or `simulated`.
        public var model: IMUModelChoice
        public var bus: Int?
        public var address: Int?
        /// Magnetometer address where it is a separate device (LSM9DS1).
        public var magAddress: Int?
        /// Device X, Y, Z in terms of chip axes, e.g. `["+x", "+y", "+z"]`.
        public var mount: MountOrientation
        /// The separate magnetometer chip's axes, when it sits differently from the
        /// accelerometer/gyroscope chip (a GY-521 and a GY-271 side by side).
        public var magMount: MountOrientation? = nil
    }

    /// A push button on a GPIO line.
    public struct Button: Sendable, Equatable {
        /// The line's pull resistor, as a board file names it.
        public enum Bias: String, Sendable, CaseIterable {
            case pullUp = "pull-up", pullDown = "pull-down", none
        }
        public var line: Int
        public var bias: Bias
        public var activeLow: Bool
        public var debounceMs: Int
    }

    /// An LED on a GPIO line.
    public struct LED: Sendable, Equatable {
        public var line: Int
        public var activeLow: Bool
    }

    /// GPIO wiring: chip device name and lines.
    public struct GPIO: Sendable, Equatable {
        public var chip: String
        public var button: Button?
        public var labelButton: Button?
        public var led: LED?
    }

    public var name: String
    public var description: String?
    /// Substrings of `/proc/device-tree/model` that identify this board.
    public var modelMatch: [String]
    public var imu: IMU
    /// gpsd address, nil when the board has no GPS.
    public var gpsd: GPSDAddress?
    public var gpio: GPIO?
    public var output: String?
    /// The file it was read from.
    public var file: String

    /// Reads a board file's text.
    public static func parse(text: String, file: String) throws(ConfigError) -> BoardDefinition {
        let doc = try YAMLDocument(text: text, file: file)
        guard let name = try doc.string("name") else {
            throw ConfigError(file: file, line: 1, key: "name", message: "missing: every board file needs a name")
        }
        let description = try doc.string("description")
        let match = try doc.strings("model_match") ?? []
        guard let imuDoc = try doc.section("imu") else {
            throw ConfigError(file: file, line: 1, key: "imu", message: "missing: say which IMU the board has (model: ...)")
        }
        let model = try imuDoc.parsed("model", IMUModelChoice.init(parsing:)) ?? .auto
        let bus = try imuDoc.int("bus", in: 0...255)
        let address = try imuDoc.int("address", in: 0x03...0x77)
        let magAddress = try imuDoc.int("mag_address", in: 0x03...0x77)
        let mount = try imuDoc.parsedList("mount", MountOrientation.init) ?? .identity
        let magMount = try imuDoc.parsedList("mag_mount", MountOrientation.init)
        try imuDoc.rejectUnknownKeys()
        var gpsd: GPSDAddress?
        if let gps = try doc.section("gps") {
            gpsd = try gps.parsed("gpsd", expected: GPSDAddress.expected, GPSDAddress.init(parsing:))
            try gps.rejectUnknownKeys()
        }
        var gpio: GPIO?
        if let g = try doc.section("gpio") {
            let chip = try g.string("chip") ?? "gpiochip0"
            gpio = GPIO(chip: chip, button: try button(g, "button"), labelButton: try button(g, "label_button"),
                        led: try led(g))
            try g.rejectUnknownKeys()
        }
        let output = try doc.string("output")
        try doc.rejectUnknownKeys()
        return BoardDefinition(name: name, description: description, modelMatch: match,
                               imu: IMU(model: model, bus: bus, address: address, magAddress: magAddress, mount: mount,
                                        magMount: magMount),
                               gpsd: gpsd, gpio: gpio, output: output, file: file)
    }

    private static func button(_ g: YAMLDocument, _ key: String) throws(ConfigError) -> Button? {
        guard let b = try g.section(key) else { return nil }
        guard let line = try b.int("line", in: 0...1023) else {
            throw ConfigError(file: g.file, line: g.lineOf(key), key: "gpio.\(key).line", message: "missing: the GPIO line number")
        }
        let bias = try b.parsed("bias", expected: "one of " + Button.Bias.allCases.map(\.rawValue).joined(separator: ", "),
                                Button.Bias.init(rawValue:)) ?? .pullUp
        let activeLow = try b.bool("active_low") ?? (bias == .pullUp)
        let debounce = try b.int("debounce_ms", in: 0...1000) ?? 30
        try b.rejectUnknownKeys()
        return Button(line: line, bias: bias, activeLow: activeLow, debounceMs: debounce)
    }

    private static func led(_ g: YAMLDocument) throws(ConfigError) -> LED? {
        guard let l = try g.section("led") else { return nil }
        guard let line = try l.int("line", in: 0...1023) else {
            throw ConfigError(file: g.file, line: g.lineOf("led"), key: "gpio.led.line", message: "missing: the GPIO line number")
        }
        let activeLow = try l.bool("active_low") ?? false
        try l.rejectUnknownKeys()
        return LED(line: line, activeLow: activeLow)
    }
}
