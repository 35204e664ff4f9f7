/// The fast path of `RecordingReader`: a line that is a plain, valid row in the form the
/// recorder writes becomes a `Row` without making Strings. Anything else — an error, a
/// warning (a number not in Swift's shortest form), a CR, a number this path does not
/// handle — returns nil, and the caller reads the line the thorough way, so the problems
/// reported never depend on which path read a line.
///
/// A number is accepted only when its text is byte for byte the `Double.description` of the
/// value read (`DoubleText`, the writer's encoder): the value is read exactly by `FastNumber`
/// (the reader `summary` uses too) and written again to compare.
enum PlainRowParser {
    /// The row on `line` (without its LF), or nil for the thorough path.
    static func row(_ line: UnsafeBufferPointer<UInt8>) -> Row? {
        guard let p = line.baseAddress else { return nil }
        let n = line.count
        guard n >= 6, p[n - 1] != 0x0D, p[1] == 0x2C, p[3] == 0x2C, let source = Source(rawValue: p[0]),
              p[2] >= 0x41, p[2] <= 0x5A else { return nil }
        var values: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &values) { raw -> Bool in
            let out = raw.bindMemory(to: Double.self)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.slackBytes) { scratch -> Bool in
                guard let text = scratch.baseAddress else { return false }
                var field = 2
                var start = 4
                while true {
                    var end = start
                    while end < n && p[end] != 0x2C { end += 1 }
                    guard field < source.fieldCount else { return false }
                    if source == .location && field == 11 {
                        guard end - start == 1, p[start] == 0x32 || p[start] == 0x33 else { return false }
                        out[field - 2] = p[start] == 0x32 ? 2 : 3
                    } else {
                        guard let v = confirmed(p, start, end, scratch: text),
                              CSVFormat.rangeProblem(source, field, v) == nil else { return false }
                        out[field - 2] = v
                    }
                    field += 1
                    if end == n { break }
                    start = end + 1
                }
                return field == source.fieldCount
            }
        }
        guard ok else { return nil }
        return Row(source: source, label: p[2], when: values.0,
                   values: (values.1, values.2, values.3, values.4, values.5, values.6, values.7, values.8, values.9))
    }

    /// The Double whose `description` is exactly the text `[start, end)`, or nil. The text
    /// is read exactly (`FastNumber`); a shortest text reads back as the Double it came from,
    /// so writing that value again must give the text byte for byte.
    static func confirmed(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                          scratch: UnsafeMutablePointer<UInt8>) -> Double? {
        guard let v = FastNumber.parse(p, start, end), writes(v, p, start, end, scratch) else { return nil }
        return v
    }

    /// Whether `v`'s description is the text `[start, end)`.
    @inline(__always)
    static func writes(_ v: Double, _ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                       _ scratch: UnsafeMutablePointer<UInt8>) -> Bool {
        let count = DoubleText.write(v, withSlackTo: scratch)
        guard count == end - start else { return false }
        for k in 0..<count where scratch[k] != p[start + k] { return false }
        return true
    }
}
