/// The fast path of `RecordingReader`: a line that is a plain, valid row in the form the
/// recorder writes becomes a `Row` without making Strings. Anything else — an error, a
/// warning (a number not in Swift's shortest form), a CR, a number this path does not
/// handle — returns nil, and the caller reads the line the thorough way, so the problems
/// reported never depend on which path read a line.
///
/// A number is accepted only when its text is byte for byte the `Double.description` of the
/// value read (`DoubleText`, the writer's encoder). That also proves the value right: the
/// shortest text of a Double reads back as that Double, so a value read approximately
/// (w / 10^q, two roundings at most) and then confirmed, or its neighbour one ulp away, is
/// exactly the value `Double(text)` gives.
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

    /// The Double whose `description` is exactly the text `[start, end)`, or nil.
    static func confirmed(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int,
                          scratch: UnsafeMutablePointer<UInt8>) -> Double? {
        guard let guess = approximate(p, start, end) else { return nil }
        if writes(guess, p, start, end, scratch) { return guess }
        if writes(guess.nextUp, p, start, end, scratch) { return guess.nextUp }
        if writes(guess.nextDown, p, start, end, scratch) { return guess.nextDown }
        return nil
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

    /// The value of a decimal `-?digits[.digits][e[+-]digits]` or `nan`, within an ulp or so;
    /// nil for other text, more than 19 significant digits or a power of ten beyond ±22.
    static func approximate(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        let negative = i < end && p[i] == 0x2D
        if negative { i += 1 }
        if end - i == 3 && p[i] == 0x6E && p[i + 1] == 0x61 && p[i + 2] == 0x6E { return .nan }
        var w: UInt64 = 0, significant = 0, q = 0, digits = 0
        var point = false
        while i < end {
            let c = p[i]
            if c == 0x2E, !point {
                point = true
            } else if c &- 0x30 < 10 {
                let d = UInt64(c &- 0x30)
                if w > 0 || d > 0 { significant += 1 }
                guard significant <= 19 else { return nil }
                w = w &* 10 &+ d
                digits += 1
                if point { q -= 1 }
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        if i < end {
            guard p[i] == 0x65, i + 1 < end else { return nil }
            i += 1
            var exponentNegative = false
            if p[i] == 0x2D || p[i] == 0x2B { exponentNegative = p[i] == 0x2D; i += 1 }
            var e = 0
            guard i < end else { return nil }
            while i < end {
                let d = p[i] &- 0x30
                guard d < 10, e < 1000 else { return nil }
                e = e * 10 + Int(d)
                i += 1
            }
            q += exponentNegative ? -e : e
        }
        guard q >= -22 && q <= 22 else { return nil }
        let power = DoubleText.exactPowersOfTen[q < 0 ? -q : q]
        let magnitude = q < 0 ? Double(w) / power : Double(w) * power
        return negative ? -magnitude : magnitude
    }
}
