/// One data row of a recording in binary form: what the sampling thread hands to the
/// writer. Fixed size (no heap), so the writer's buffers are preallocated arrays of rows.
public struct Row: Sendable, Equatable {
    public var source: Source
    /// The label letter as ASCII (e.g. `W`).
    public var label: UInt8
    /// Epoch seconds (or seconds since the first sample with `--when relative`).
    public var when: Double
    /// Up to nine values; only the first `source.valueCount` are meaningful.
    public var values: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    public init(source: Source, label: UInt8, when: Double,
                values: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
        self.source = source; self.label = label; self.when = when; self.values = values
    }

    /// A three-value row (A, G, M).
    public init(source: Source, label: UInt8, when: Double, _ x: Double, _ y: Double, _ z: Double) {
        self.init(source: source, label: label, when: when, values: (x, y, z, 0, 0, 0, 0, 0, 0))
    }

    public subscript(i: Int) -> Double {
        switch i {
        case 0: return values.0
        case 1: return values.1
        case 2: return values.2
        case 3: return values.3
        case 4: return values.4
        case 5: return values.5
        case 6: return values.6
        case 7: return values.7
        default: return values.8
        }
    }

    public static func == (a: Row, b: Row) -> Bool {
        guard a.source == b.source, a.label == b.label, a.when.bitPattern == b.when.bitPattern else { return false }
        for i in 0..<a.source.valueCount where a[i].bitPattern != b[i].bitPattern {
            if !(a[i].isNaN && b[i].isNaN) { return false }
        }
        return true
    }
}

/// Label letters as MotionCollector uses them.
public enum Label {
    /// `W`, walking: MotionCollector's default.
    public static let defaultLetter: UInt8 = 0x57
    /// `T`, turning: set while the turning button is held.
    public static let turning: UInt8 = 0x54

    /// Validates a label: exactly one uppercase ASCII letter.
    public static func parse(_ text: String) -> UInt8? {
        guard text.utf8.count == 1, let b = text.utf8.first, b >= 0x41, b <= 0x5A else { return nil }
        return b
    }
}
