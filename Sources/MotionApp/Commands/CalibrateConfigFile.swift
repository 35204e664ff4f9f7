import Foundation
import MotionConfig
import MotionCore
import MotionFusion
import MotionMath
import SystemPackage

/// The config file's `calibration:` section as `motionlog calibrate` writes it: YAML text,
/// and the edit that replaces the section in an existing file (keeping every other line
/// and comment) or appends it.
enum CalibrateConfigFile {
    /// The section's text (with its trailing LF).
    static func section(gyroBias: Vector3?, mag: MagnetometerCalibration?, keeping old: CalibrationSettings?,
                        comment: String) -> String {
        func list(_ v: [Double]) -> String { "[" + v.map { "\($0)" }.joined(separator: ", ") + "]" }
        func list(_ v: Vector3) -> String { list([v.x, v.y, v.z]) }
        var lines = ["calibration:", "  # \(comment)"]
        if let g = gyroBias { lines.append("  gyro_bias: \(list(g))  # rad/s") } else if let g = old?.gyroBias {
            lines.append("  gyro_bias: \(list(g))  # rad/s (kept: not measured this time)")
        }
        if let m = mag {
            lines.append("  mag_hard_iron: \(list(m.hardIron))  # µT")
            lines.append("  mag_soft_iron:  # applied after the hard iron")
            let s = m.softIron
            for r in [s.rows.0, s.rows.1, s.rows.2] { lines.append("    - \(list(r))") }
        } else {
            if let h = old?.magHardIron { lines.append("  mag_hard_iron: \(list(h))  # µT (kept)") }
            if let s = old?.magSoftIron {
                lines.append("  mag_soft_iron:  # kept")
                for r in s { lines.append("    - \(list(r))") }
            }
        }
        if let a = old?.accelOffset { lines.append("  accel_offset: \(list(a))  # g (kept)") }
        if let a = old?.accelScale { lines.append("  accel_scale: \(list(a))  # (kept)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with its top-level `calibration:` block replaced by `section` (or `section`
    /// appended when there is none).
    static func replacing(in text: String, with section: String) -> String {
        ConfigFileEdit.replacing(section: "calibration", in: text, with: section)
    }

    /// What writing the config file did.
    enum Outcome: Equatable {
        case created, replacedSection, addedSection

        func sentence(_ path: String) -> String {
            switch self {
            case .created: return "Created \(path) with the calibration section."
            case .replacedSection: return "Updated \(path): its calibration section was replaced; the rest of the file is unchanged."
            case .addedSection: return "Updated \(path): a calibration section was added at the end; the rest of the file is unchanged."
            }
        }
    }

    /// Writes the calibration `section` into the config file at `path` (created when
    /// missing) and says what it did.
    static func update(_ path: String, existing: String?, section: String, inputs: [String] = []) throws(CommandFailure) -> Outcome {
        let outcome: Outcome
        if let existing {
            outcome = existing.components(separatedBy: "\n").contains(where: { ConfigFileEdit.isKey("calibration", $0) }) ? .replacedSection : .addedSection
        } else {
            outcome = .created
        }
        try ConfigFileEdit.write(replacing(in: existing ?? "", with: section), to: path, inputs: inputs)
        return outcome
    }
}
