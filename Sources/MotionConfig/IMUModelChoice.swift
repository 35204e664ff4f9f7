import IMUDrivers

/// What a board file's `imu: model:` names: probe the bus (`auto`), the built-in scripted
/// IMU (`simulated`), or a chip or chip pair (`mpu9250`, `mpu6050+qmc5883l`, …). Parsed once
/// when the board file is read; everything after it switches over the cases.
public enum IMUModelChoice: Sendable, Equatable, CustomStringConvertible {
    case auto
    case simulated
    case chip(IMUSelection)

    /// Parses the board file's text; the error says what is accepted.
    public init(parsing text: String) throws(IMUSelectionError) {
        switch text {
        case "auto": self = .auto
        case "simulated": self = .simulated
        default: self = .chip(try IMUSelection(parsing: text))
        }
    }

    /// What `imu: model:` accepts, for messages.
    public static let help = "auto, simulated or \(IMUSelection.help)"

    /// The board file's text.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .simulated: return "simulated"
        case .chip(let selection): return selection.description
        }
    }

    /// True for the built-in scripted IMU (the simulator board).
    public var isSimulated: Bool { self == .simulated }
}
