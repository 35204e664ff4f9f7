import Foundation
import MotionCore

/// Parses CSV text with the production reader (through a temporary file).
func readRows(_ text: String) throws -> (rows: [Row], problems: [RecordingProblem]) {
    let path = NSTemporaryDirectory() + "motionlog-test-\(UUID().uuidString).csv"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try RecordingReader(path: path).readAll()
}

func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "motionlog-test-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A deterministic generator for reproducible "random" tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func row(_ source: Source, _ when: Double, _ v: Double = 0.5) -> Row {
    if source.valueCount == 3 { return Row(source: source, label: Label.defaultLetter, when: when, v, -v, v * 2) }
    let mode: Double = source == .location ? 3 : v
    return Row(source: source, label: Label.defaultLetter, when: when, values: (v, v, v, v, v, v, v, v, mode))
}
