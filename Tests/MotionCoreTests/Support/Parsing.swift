import Foundation
import MotionTestSupport
import MotionCore

/// Parses CSV text with the production reader (through a temporary file).
func readRows(_ text: String) throws -> (rows: [Row], problems: [RecordingProblem]) {
    let path = NSTemporaryDirectory() + "motionlog-test-\(UUID().uuidString).csv"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try RecordingReader(path: path).readAll()
}

func temporaryDirectory() -> String { ScratchFolder.make("core") }

func row(_ source: Source, _ when: Double, _ v: Double = 0.5) -> Row {
    if source.valueCount == 3 { return Row(source: source, label: Label.defaultLetter, when: when, v, -v, v * 2) }
    let mode: Double = source == .location ? 3 : v
    return Row(source: source, label: Label.defaultLetter, when: when, values: (v, v, v, v, v, v, v, v, mode))
}
